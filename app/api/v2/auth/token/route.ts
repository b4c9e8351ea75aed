import { handler, json } from "@/server/http/handler";
import { readJson } from "@/server/http/body";
import { issueAccessToken } from "@/server/services/accounts/issue-access-token";

export const POST = handler(async ({ request, db, ip }) =>
  json(await issueAccessToken(db, await readJson(request), { ip }), 200, { "cache-control": "no-store" }),
);
