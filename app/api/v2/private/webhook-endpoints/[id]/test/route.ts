import { json } from "@/server/http/handler";
import { rejectUnknownQuery } from "@/server/http/query";
import { withAccessToken } from "@/server/http/with-access-token";
import { sendTestWebhook } from "@/server/services/webhooks/send-test-webhook";

export const POST = withAccessToken<{ id: string }>(async ({ url, params, db, actor, ip }) => {
  rejectUnknownQuery(url, []);
  return json(await sendTestWebhook(db, actor, params.id, { ip }), 202);
});
