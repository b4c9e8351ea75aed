import { withApiKey } from "@/server/http/with-api-key";
import { pdf } from "@/server/http/pdf";
import { renderOrderLabel } from "@/server/services/labels/render-shipping-labels";

export const GET = withApiKey<{ id: string }>("labels:read", async ({ params, db, principal }) =>
  pdf(await renderOrderLabel(db, principal.accountId, params.id), `label-${params.id}.pdf`),
);
