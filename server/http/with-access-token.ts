import { verifyAccessToken } from "@/server/auth/access-tokens";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/services/authorization";
import { getActor } from "@/server/services/accounts/get-actor";
import { setRequestCaller } from "@/server/observability/request-context";
import { checkQuery, restRoute, type HandlerArgs, type RouteOptions } from "./handler";

const unauthorized = (detail: string) =>
  new AppError("unauthorized", detail, { details: { challenge: { realm: "private-api" } } });

/** Every refusal of the private API's authentication: the wrapper throws these, the document shows them. */
export const accessTokenRefusals = {
  missing: () =>
    unauthorized(
      "An access token is required: POST /api/v2/auth/token, then send Authorization: Bearer <accessToken>.",
    ),
  invalid: () => unauthorized("The access token is invalid or expired."),
};

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1]! : null;
}

/**
 * A private-API route: a valid access token of an existing user, else 401. API keys are not tokens.
 * Query parameters the route does not declare in `options.query` answer 400.
 */
export function withAccessToken<P extends Record<string, string>>(
  fn: (args: HandlerArgs<P> & { actor: Actor }) => Promise<Response>,
  options: RouteOptions = {},
) {
  return restRoute<P>(async (args) => {
    const token = bearerToken(args.request);
    if (!token) throw accessTokenRefusals.missing();
    const verified = await verifyAccessToken(token);
    const actor = verified
      ? await getActor(args.db, verified.userId, { sessionVersion: verified.sessionVersion })
      : null;
    if (!actor) throw accessTokenRefusals.invalid();
    setRequestCaller({ userId: actor.userId });
    checkQuery(args.url, options);
    return fn({ ...args, actor });
  }, options.operationId);
}
