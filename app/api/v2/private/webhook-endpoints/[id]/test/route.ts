import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { sendTestWebhookOp } from "@/server/operations/webhooks";
import { sendTestWebhook } from "@/server/services/webhooks/send-test-webhook";

export const POST = route(sendTestWebhookOp, async ({ params, db, actor, ip }) =>
  json(await sendTestWebhook(db, actor, params.id, { ip }), 202),
);
