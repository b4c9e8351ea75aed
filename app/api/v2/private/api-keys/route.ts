import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { createApiKeyOp, listApiKeysOp } from "@/server/operations/api-keys";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { listApiKeys } from "@/server/services/api-keys/list-api-keys";
import { accountIdOrDefault } from "@/server/services/authorization";

export const GET = route(listApiKeysOp, async ({ query, db, actor }) =>
  json(await listApiKeys(db, actor, await accountIdOrDefault(db, actor, query.accountId), query)),
);

export const POST = route(createApiKeyOp, async ({ body, db, actor, ip }) =>
  json(await createApiKey(db, actor, body, { ip }), 201, { "cache-control": "no-store" }),
);
