import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { issueAccessTokenOp } from "@/server/operations/auth";
import { issueAccessToken } from "@/server/services/accounts/issue-access-token";

export const POST = route(issueAccessTokenOp, async ({ body, db, ip }) =>
  json(await issueAccessToken(db, body, { ip }), 200, { "cache-control": "no-store" }),
);
