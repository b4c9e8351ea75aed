import { readJson } from "@/server/http/body";
import { json, noContent } from "@/server/http/handler";
import { withAccessToken } from "@/server/http/with-access-token";
import { deleteWebhookEndpoint } from "@/server/services/webhooks/delete-webhook-endpoint";
import { updateWebhookEndpoint } from "@/server/services/webhooks/update-webhook-endpoint";

export const PATCH = withAccessToken<{ id: string }>(async ({ request, params, db, actor, ip }) =>
  json(
    await updateWebhookEndpoint(
      db,
      actor,
      params.id,
      await readJson(request, ["application/json", "application/merge-patch+json"]),
      { ip },
    ),
  ),
);

export const DELETE = withAccessToken<{ id: string }>(async ({ params, db, actor, ip }) => {
  await deleteWebhookEndpoint(db, actor, params.id, { ip });
  return noContent();
});
