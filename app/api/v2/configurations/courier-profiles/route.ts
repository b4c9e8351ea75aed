import { json } from "@/server/http/handler";
import { withApiKey } from "@/server/http/with-api-key";
import { listAccountCourierProfiles } from "@/server/services/courier-profiles/list-courier-profiles";

export const GET = withApiKey("configurations:read", async ({ db, principal }) =>
  json({ items: await listAccountCourierProfiles(db, principal.accountId) }),
);
