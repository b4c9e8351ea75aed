import type { Db } from "@/db/client";
import { AppError } from "@/server/errors";
import type { ApiKeyPermission } from "@/lib/api-key-permissions";
import {
  accountBucket,
  keyBucket,
  verifyApiKeyTakingToken,
  type ApiKeyPrincipal,
} from "@/server/services/api-keys/verify-api-key";
import { env } from "@/server/env";
import { rateLimited, takeFromBuckets, tightest, type RateLimitState } from "@/server/services/rate-limits/take-tokens";
import { setRequestCaller } from "@/server/observability/request-context";
import { checkQuery, restRoute, type HandlerArgs, type RouteOptions } from "./handler";
import { errorResponse, rateLimitHeaders } from "./problem";
import { corsHeaders, publishableOrigin, publishableRefusals, takeAddressToken } from "./publishable-key";
import { bearerToken } from "./with-access-token";

const unauthorized = (detail: string) =>
  new AppError("unauthorized", detail, { details: { challenge: { realm: "shipping-orders" } } });

/** Every refusal of the shipping-order API's authentication: the wrapper throws these, the document shows them. */
export const apiKeyRefusals = {
  missing: () => unauthorized("An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>."),
  unknown: () => unauthorized("The API key is unknown or revoked."),
  lacking: (permission: ApiKeyPermission) =>
    new AppError("forbidden", `The API key lacks the permission ${permission}.`),
  exhausted: (state: RateLimitState) => rateLimited(state, "The API key's rate limit is exhausted"),
  accountExhausted: (state: RateLimitState) =>
    rateLimited(state, "The account's rate limit (all of its API keys together) is exhausted"),
};

/** Lets a handler charge more than the one request the wrapper already counted (a batch counts by its orders). */
export type RateLimiter = { take(extra: number): Promise<void> };

/** A verified key and its rate-limit bucket after this request's token. */
export type ApiKeyAuthentication = { principal: ApiKeyPrincipal; rateLimit: RateLimiter & { state(): RateLimitState } };

/**
 * What every key-protected request does before its handler, without HTTP: verifies the key (unknown or
 * revoked → 401) and takes a token from its bucket and from its account's (429 past either limit). The bench's
 * baseline server calls it too, so app ÷ baseline measures the framework alone.
 */
export async function authenticateApiKey(
  db: Db,
  key: string | null | undefined,
  accountLimitPerMinute = env().ACCOUNT_RATE_LIMIT_PER_MINUTE,
): Promise<ApiKeyAuthentication> {
  const authentication = await verifyApiKeyRequest(db, key, accountLimitPerMinute);
  if (authentication.exhausted) throw authentication.exhausted;
  return authentication;
}

/**
 * `authenticateApiKey` that hands back a rate-limit refusal instead of throwing it, with the key it belongs to: a
 * publishable key's 429 must still carry the CORS headers of its page's origin, or the browser hides it from the
 * widget as a network error.
 */
async function verifyApiKeyRequest(
  db: Db,
  key: string | null | undefined,
  accountLimitPerMinute: number,
): Promise<ApiKeyAuthentication & { exhausted: AppError | null }> {
  if (!key) throw apiKeyRefusals.missing();
  const verified = await verifyApiKeyTakingToken(db, key, accountLimitPerMinute);
  if (!verified) throw apiKeyRefusals.unknown();
  const { principal } = verified;
  const buckets = [
    { subject: keyBucket(principal.keyId), limitPerMinute: principal.rateLimitPerMinute },
    { subject: accountBucket(principal.accountId), limitPerMinute: accountLimitPerMinute },
  ];
  let state = verified.rateLimit;
  const exhausted =
    verified.refusedBy === "account"
      ? apiKeyRefusals.accountExhausted(state)
      : verified.refusedBy === "key"
        ? apiKeyRefusals.exhausted(state)
        : null;
  return {
    exhausted,
    principal,
    rateLimit: {
      state: () => state,
      async take(extra) {
        if (extra <= 0) return;
        const taken = await takeFromBuckets(db, buckets, extra);
        // A refused extra leaves the headers telling the bucket that refused it.
        state = taken.state;
        if (taken.refusedBy) {
          const whose = taken.refusedBy === buckets[0] ? "the key's" : "the account's (all of its API keys together)";
          throw rateLimited(state, `This request counts ${extra + 1} against ${whose} rate limit`);
        }
      },
    },
  };
}

/**
 * A shipping-order API route: an active API key (`Authorization: Bearer` or `X-API-Key`) holding
 * `permission`. Missing, unknown or revoked → 401 with WWW-Authenticate; lacking the permission → 403.
 * Every request takes a token from the key's bucket (429 with Retry-After past the limit), and every answer
 * after authentication carries the RateLimit-* headers. Query parameters the route does not declare in
 * `options.query` answer 400 (after authentication, so a caller without a key learns nothing more).
 * A publishable key passes only where `options.publishable` says so (403 elsewhere), holds no permission, is answered
 * only to its `allowedOrigins` (CORS headers, `Vary: Origin`) and draws on a bucket per client address as well.
 */
export function withApiKey<P extends Record<string, string>>(
  permission: ApiKeyPermission,
  fn: (args: HandlerArgs<P> & { principal: ApiKeyPrincipal; rateLimit: RateLimiter }) => Promise<Response>,
  options: RouteOptions = {},
) {
  return restRoute<P>(async (args) => {
    const { principal, rateLimit, exhausted } = await verifyApiKeyRequest(
      args.db,
      args.request.headers.get("x-api-key")?.trim() || bearerToken(args.request),
      env().ACCOUNT_RATE_LIMIT_PER_MINUTE,
    );
    setRequestCaller({ accountId: principal.accountId });
    let response: Response;
    // The page a publishable key's answer may be read by (null: none, or the widget's own same-origin page).
    let origin: string | null = null;
    let addressState: RateLimitState | undefined;
    try {
      if (principal.kind === "publishable") {
        if (!options.publishable) throw publishableRefusals.elsewhere();
        origin = publishableOrigin(args.request, principal);
        // Past the key's limit: refused, with its origin's CORS headers (below) so that the page can read why.
        if (exhausted) throw exhausted;
        addressState = await takeAddressToken(args.db, principal, args.ip);
      } else {
        if (exhausted) throw exhausted;
        if (!principal.permissions.includes(permission)) throw apiKeyRefusals.lacking(permission);
      }
      checkQuery(args.url, options);
      response = await fn({ ...args, principal, rateLimit });
    } catch (error) {
      response = errorResponse(error, args.request);
    }
    const state = addressState ? tightest([rateLimit.state(), addressState]) : rateLimit.state();
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    if (options.publishable) {
      response.headers.append("vary", "Origin");
      for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
    }
    return response;
  }, options.operationId);
}
