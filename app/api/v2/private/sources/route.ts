import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { activateSourceOp, listSourcesOp } from "@/server/operations/sources";
import { accountIdOrDefault } from "@/server/services/authorization";
import { activateSource } from "@/server/services/sources/activate-source";
import { listSources } from "@/server/services/sources/list-sources";

export const GET = route(listSourcesOp, async ({ query, db, actor }) =>
  json(await listSources(db, actor, await accountIdOrDefault(db, actor, query.accountId))),
);

export const POST = route(activateSourceOp, async ({ body, db, actor, ip }) =>
  json(await activateSource(db, actor, body, { ip }), 201),
);
