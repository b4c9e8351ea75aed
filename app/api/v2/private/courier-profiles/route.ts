import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { createCourierProfileOp, listCourierProfilesOp } from "@/server/operations/courier-profiles";
import { accountIdOrDefault } from "@/server/services/authorization";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { listCourierProfiles } from "@/server/services/courier-profiles/list-courier-profiles";

export const GET = route(listCourierProfilesOp, async ({ query, db, actor }) =>
  json(await listCourierProfiles(db, actor, await accountIdOrDefault(db, actor, query.accountId))),
);

export const POST = route(createCourierProfileOp, async ({ body, db, actor, ip }) =>
  json(await createCourierProfile(db, actor, body, { ip }), 201),
);
