import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listSourceConfigurationsOp } from "@/server/operations/configurations";
import { listSourceConfigurations } from "@/server/services/configurations/list-source-configurations";

export const GET = route(listSourceConfigurationsOp, async ({ db, principal }) =>
  json(await listSourceConfigurations(db, principal.accountId)),
);
