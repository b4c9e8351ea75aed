import { readJson } from "@/server/http/body";
import { json, noContent } from "@/server/http/handler";
import { withAccessToken } from "@/server/http/with-access-token";
import { deleteCourierProfile } from "@/server/services/courier-profiles/delete-courier-profile";
import { updateCourierProfile } from "@/server/services/courier-profiles/update-courier-profile";

export const PATCH = withAccessToken<{ id: string }>(async ({ request, params, db, actor, ip }) =>
  json(
    await updateCourierProfile(
      db,
      actor,
      params.id,
      await readJson(request, ["application/json", "application/merge-patch+json"]),
      { ip },
    ),
  ),
);

export const DELETE = withAccessToken<{ id: string }>(async ({ params, db, actor, ip }) => {
  await deleteCourierProfile(db, actor, params.id, { ip });
  return noContent();
});
