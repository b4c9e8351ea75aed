import { queryList } from "@/server/http/query";
import { withApiKey } from "@/server/http/with-api-key";
import { pdf } from "@/server/http/pdf";
import { renderLabelsByNumber } from "@/server/services/labels/render-shipping-labels";

export const GET = withApiKey(
  "labels:read",
  async ({ url, db, principal }) =>
    pdf(await renderLabelsByNumber(db, principal.accountId, queryList(url, "shippingNumbers")), "labels.pdf"),
  { query: ["shippingNumbers"] },
);
