import { readJson } from "@/server/http/body";
import { json, noContent } from "@/server/http/handler";
import { withAccessToken } from "@/server/http/with-access-token";
import { revokeApiKey } from "@/server/services/api-keys/revoke-api-key";
import { updateApiKey } from "@/server/services/api-keys/update-api-key";

export const PATCH = withAccessToken<{ id: string }>(async ({ request, params, db, actor, ip }) =>
  json(
    await updateApiKey(
      db,
      actor,
      params.id,
      await readJson(request, ["application/json", "application/merge-patch+json"]),
      { ip },
    ),
  ),
);

export const DELETE = withAccessToken<{ id: string }>(async ({ params, db, actor, ip }) => {
  await revokeApiKey(db, actor, params.id, { ip });
  return noContent();
});
