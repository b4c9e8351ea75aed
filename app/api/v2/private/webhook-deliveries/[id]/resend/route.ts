import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { resendWebhookDeliveryOp } from "@/server/operations/webhooks";
import { resendWebhookDelivery } from "@/server/services/webhooks/resend-webhook-delivery";

export const POST = route(resendWebhookDeliveryOp, async ({ params, db, actor, ip }) => {
  await resendWebhookDelivery(db, actor, params.id, { ip });
  return json({ id: params.id, status: "pending" }, 202);
});
