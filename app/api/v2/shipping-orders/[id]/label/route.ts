import { labelFormatOf, labelResponse } from "@/server/http/label-file";
import { withApiKey } from "@/server/http/with-api-key";
import { renderOrderLabel } from "@/server/services/labels/render-shipping-labels";

export const GET = withApiKey<{ id: string }>(
  "labels:read",
  async ({ url, params, db, principal }) =>
    labelResponse(await renderOrderLabel(db, principal.accountId, params.id, labelFormatOf(url))),
  { query: ["format"] },
);
