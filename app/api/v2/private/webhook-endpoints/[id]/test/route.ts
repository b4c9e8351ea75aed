import { json } from "@/server/http/handler";
import { withAccessToken } from "@/server/http/with-access-token";
import { sendTestWebhook } from "@/server/services/webhooks/send-test-webhook";

export const POST = withAccessToken<{ id: string }>(async ({ params, db, actor, ip }) =>
  json(await sendTestWebhook(db, actor, params.id, { ip }), 202),
);
