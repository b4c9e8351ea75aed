import { readJson } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { accountIdFrom, ACCOUNT_PARAM } from "@/server/http/private-query";
import { withAccessToken } from "@/server/http/with-access-token";
import { activateSource } from "@/server/services/sources/activate-source";
import { listSources } from "@/server/services/sources/list-sources";

export const GET = withAccessToken(
  async ({ url, db, actor }) => json(await listSources(db, actor, await accountIdFrom(url, db, actor))),
  { query: [ACCOUNT_PARAM] },
);

export const POST = withAccessToken(async ({ request, db, actor, ip }) =>
  json(await activateSource(db, actor, await readJson(request), { ip }), 201),
);
