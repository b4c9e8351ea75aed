import { json } from "@/server/http/handler";
import { withAccessToken } from "@/server/http/with-access-token";
import { rotateWebhookSecret } from "@/server/services/webhooks/rotate-webhook-secret";

export const POST = withAccessToken<{ id: string }>(async ({ params, db, actor, ip }) =>
  json(await rotateWebhookSecret(db, actor, params.id, { ip }), 200, { "cache-control": "no-store" }),
);
