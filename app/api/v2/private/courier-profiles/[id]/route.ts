import { json, noContent } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { deleteCourierProfileOp, updateCourierProfileOp } from "@/server/operations/courier-profiles";
import { deleteCourierProfile } from "@/server/services/courier-profiles/delete-courier-profile";
import { updateCourierProfile } from "@/server/services/courier-profiles/update-courier-profile";

export const PATCH = route(updateCourierProfileOp, async ({ body, params, db, actor, ip }) =>
  json(await updateCourierProfile(db, actor, params.id, body, { ip })),
);

export const DELETE = route(deleteCourierProfileOp, async ({ params, db, actor, ip }) => {
  await deleteCourierProfile(db, actor, params.id, { ip });
  return noContent();
});
