import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { rotateWebhookSecretOp } from "@/server/operations/webhooks";
import { rotateWebhookSecret } from "@/server/services/webhooks/rotate-webhook-secret";

export const POST = route(rotateWebhookSecretOp, async ({ params, db, actor, ip }) =>
  json(await rotateWebhookSecret(db, actor, params.id, { ip }), 200, { "cache-control": "no-store" }),
);
