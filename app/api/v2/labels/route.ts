import { labelResponse } from "@/server/http/label-file";
import { route } from "@/server/http/operation";
import { getLabelsOp } from "@/server/operations/labels";
import { renderLabelsByNumber } from "@/server/services/labels/render-shipping-labels";

export const GET = route(getLabelsOp, async ({ query, db, principal }) =>
  labelResponse(await renderLabelsByNumber(db, principal.accountId, query.shippingNumbers ?? [], query.format)),
);
