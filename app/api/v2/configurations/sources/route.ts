import { json } from "@/server/http/handler";
import { withApiKey } from "@/server/http/with-api-key";
import { listSourceConfigurations } from "@/server/services/configurations/list-source-configurations";

export const GET = withApiKey("configurations:read", async ({ db, principal }) =>
  json(await listSourceConfigurations(db, principal.accountId)),
);
