import { noContent } from "@/server/http/handler";
import { withAccessToken } from "@/server/http/with-access-token";
import { deactivateSource } from "@/server/services/sources/deactivate-source";

export const DELETE = withAccessToken<{ id: string }>(async ({ params, db, actor, ip }) => {
  await deactivateSource(db, actor, params.id, { ip });
  return noContent();
});
