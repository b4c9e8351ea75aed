import { noContent } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { deactivateSourceOp } from "@/server/operations/sources";
import { deactivateSource } from "@/server/services/sources/deactivate-source";

export const DELETE = route(deactivateSourceOp, async ({ params, db, actor, ip }) => {
  await deactivateSource(db, actor, params.id, { ip });
  return noContent();
});
