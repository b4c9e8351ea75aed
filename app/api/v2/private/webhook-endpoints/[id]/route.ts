import { readJson } from "@/server/http/body";
import { json, noContent } from "@/server/http/handler";
import { rejectUnknownQuery } from "@/server/http/query";
import { withAccessToken } from "@/server/http/with-access-token";
import { deleteWebhookEndpoint } from "@/server/services/webhooks/delete-webhook-endpoint";
import { updateWebhookEndpoint } from "@/server/services/webhooks/update-webhook-endpoint";

export const PATCH = withAccessToken<{ id: string }>(async ({ request, url, params, db, actor, ip }) => {
  rejectUnknownQuery(url, []);
  return json(
    await updateWebhookEndpoint(
      db,
      actor,
      params.id,
      await readJson(request, ["application/json", "application/merge-patch+json"]),
      { ip },
    ),
  );
});

export const DELETE = withAccessToken<{ id: string }>(async ({ url, params, db, actor, ip }) => {
  rejectUnknownQuery(url, []);
  await deleteWebhookEndpoint(db, actor, params.id, { ip });
  return noContent();
});
