import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { checkCourierProfileOp } from "@/server/operations/courier-profiles";
import { checkCourierProfile } from "@/server/services/courier-profiles/check-courier-profile";

export const POST = route(checkCourierProfileOp, async ({ params, db, actor }) =>
  json(await checkCourierProfile(db, actor, params.id)),
);
