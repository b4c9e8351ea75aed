import { json, noContent } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { deleteWebhookEndpointOp, updateWebhookEndpointOp } from "@/server/operations/webhooks";
import { deleteWebhookEndpoint } from "@/server/services/webhooks/delete-webhook-endpoint";
import { updateWebhookEndpoint } from "@/server/services/webhooks/update-webhook-endpoint";

export const PATCH = route(updateWebhookEndpointOp, async ({ body, params, db, actor, ip }) =>
  json(await updateWebhookEndpoint(db, actor, params.id, body, { ip })),
);

export const DELETE = route(deleteWebhookEndpointOp, async ({ params, db, actor, ip }) => {
  await deleteWebhookEndpoint(db, actor, params.id, { ip });
  return noContent();
});
