import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listAccountCourierProfilesOp } from "@/server/operations/configurations";
import { listAccountCourierProfiles } from "@/server/services/courier-profiles/list-courier-profiles";

export const GET = route(listAccountCourierProfilesOp, async ({ db, principal }) =>
  json({ items: await listAccountCourierProfiles(db, principal.accountId) }),
);
