import { labelFormatOf, labelResponse } from "@/server/http/label-file";
import { queryList } from "@/server/http/query";
import { withApiKey } from "@/server/http/with-api-key";
import { renderLabelsByNumber } from "@/server/services/labels/render-shipping-labels";

export const GET = withApiKey(
  "labels:read",
  async ({ url, db, principal }) =>
    labelResponse(
      await renderLabelsByNumber(db, principal.accountId, queryList(url, "shippingNumbers"), labelFormatOf(url)),
    ),
  { query: ["shippingNumbers", "format"] },
);
