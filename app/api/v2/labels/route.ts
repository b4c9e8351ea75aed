import { labelResponse } from "@/server/http/label-file";
import { route } from "@/server/http/operation";
import { getLabelsOp } from "@/server/operations/labels";
import { renderLabelsByNumber } from "@/server/services/labels/render-shipping-labels";
import { labelsCost } from "@/server/services/rate-limits/request-costs";

export const GET = route(getLabelsOp, async ({ query, db, principal, rateLimit }) => {
  const numbers = query.shippingNumbers ?? [];
  // Each label drawn counts as one request: a hundred PDF pages are not one call's work.
  await rateLimit.take(labelsCost(numbers.length) - 1);
  return labelResponse(await renderLabelsByNumber(db, principal.accountId, numbers, query.format));
});
