import { json } from "@/server/http/handler";
import { withAccessToken } from "@/server/http/with-access-token";
import { resendWebhookDelivery } from "@/server/services/webhooks/resend-webhook-delivery";

export const POST = withAccessToken<{ id: string }>(async ({ params, db, actor, ip }) => {
  await resendWebhookDelivery(db, actor, params.id, { ip });
  return json({ id: params.id, status: "pending" }, 202);
});
