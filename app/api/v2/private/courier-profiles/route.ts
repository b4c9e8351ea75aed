import { readJson } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { accountIdFrom, ACCOUNT_PARAM } from "@/server/http/private-query";
import { withAccessToken } from "@/server/http/with-access-token";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { listCourierProfiles } from "@/server/services/courier-profiles/list-courier-profiles";

export const GET = withAccessToken(
  async ({ url, db, actor }) => json(await listCourierProfiles(db, actor, await accountIdFrom(url, db, actor))),
  { query: [ACCOUNT_PARAM] },
);

export const POST = withAccessToken(async ({ request, db, actor, ip }) =>
  json(await createCourierProfile(db, actor, await readJson(request), { ip }), 201),
);
