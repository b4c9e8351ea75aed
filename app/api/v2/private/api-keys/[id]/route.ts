import { json, noContent } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { revokeApiKeyOp, updateApiKeyOp } from "@/server/operations/api-keys";
import { revokeApiKey } from "@/server/services/api-keys/revoke-api-key";
import { updateApiKey } from "@/server/services/api-keys/update-api-key";

export const PATCH = route(updateApiKeyOp, async ({ body, params, db, actor, ip }) =>
  json(await updateApiKey(db, actor, params.id, body, { ip })),
);

export const DELETE = route(revokeApiKeyOp, async ({ params, db, actor, ip }) => {
  await revokeApiKey(db, actor, params.id, { ip });
  return noContent();
});
