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
import {
  rateLimited,
  takeFromBuckets,
  tightest,
  type Bucket,
  type RateLimitState,
} from "@/server/services/rate-limits/take-tokens";
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
 * baseline server calls it too, so app ÷ baseline measures the framework alone. It serves no route a publishable key
 * may call (403, as `withApiKey` answers there).
 */
export async function authenticateApiKey(
  db: Db,
  key: string | null | undefined,
  accountLimitPerMinute = env().ACCOUNT_RATE_LIMIT_PER_MINUTE,
): Promise<ApiKeyAuthentication> {
  const { principal, rateLimit, exhausted } = await verifyApiKeyRequest(db, key, accountLimitPerMinute);
  const taken = rateLimit.state();
  if (principal.kind === "publishable" || !taken) throw publishableRefusals.elsewhere();
  if (exhausted) throw exhausted;
  return { principal, rateLimit: { take: (extra) => rateLimit.take(extra), state: () => rateLimit.state() ?? taken } };
}

/** A key's and its account's buckets as one request draws on them. */
type KeyRateLimit = RateLimiter & {
  /** After the request's first token; null while none was taken (a publishable key's, before its checks). */
  state(): RateLimitState | null;
  /** Takes the request's first token, for a publishable key once its checks let it through: 429 past either limit. */
  takeFirst(): Promise<void>;
};

/**
 * Verifies the key and, for a secret key, takes the request's token in the same round trip, handing back a rate-limit
 * refusal instead of throwing it (`exhausted`): a refused secret key's headers still tell its bucket. A publishable
 * key's request has taken nothing yet: `withApiKey` checks its address and origin first, then calls `takeFirst`.
 */
async function verifyApiKeyRequest(
  db: Db,
  key: string | null | undefined,
  accountLimitPerMinute: number,
): Promise<{ principal: ApiKeyPrincipal; rateLimit: KeyRateLimit; exhausted: AppError | null }> {
  if (!key) throw apiKeyRefusals.missing();
  const verified = await verifyApiKeyTakingToken(db, key, accountLimitPerMinute);
  if (!verified) throw apiKeyRefusals.unknown();
  const { principal } = verified;
  const buckets = [
    { subject: keyBucket(principal.keyId), limitPerMinute: principal.rateLimitPerMinute },
    { subject: accountBucket(principal.accountId), limitPerMinute: accountLimitPerMinute },
  ];
  let state = verified.rateLimit;
  const refusal = (refusedBy: Bucket | "key" | "account", refused: RateLimitState) =>
    refusedBy === "key" || refusedBy === buckets[0]
      ? apiKeyRefusals.exhausted(refused)
      : apiKeyRefusals.accountExhausted(refused);
  return {
    exhausted: verified.refusedBy && state ? refusal(verified.refusedBy, state) : null,
    principal,
    rateLimit: {
      state: () => state,
      async takeFirst() {
        const taken = await takeFromBuckets(db, buckets, 1);
        state = taken.state;
        if (taken.refusedBy) throw refusal(taken.refusedBy, taken.state);
      },
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
 * only to its `allowedOrigins` (CORS headers, `Vary: Origin`) and draws on a bucket per client address first: a
 * request refused for its address, its route or its origin takes nothing from the key's or the account's bucket.
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
        // Anyone may hold a publishable key, so what it is refused for must cost its shop nothing: the address's
        // token first (a refusal's only charge), then where it may be called from, and the key's and the account's
        // tokens last. Known before counting, an allowed origin can read its 429.
        const page = publishableOrigin(args.request, principal);
        if (options.publishable && page.origin) origin = page.origin;
        addressState = await takeAddressToken(args.db, principal, args.ip);
        if (!addressState.allowed) throw publishableRefusals.addressExhausted(addressState);
        if (!options.publishable) throw publishableRefusals.elsewhere();
        if (page.refusal) throw page.refusal;
        await rateLimit.takeFirst();
      } else {
        if (exhausted) throw exhausted;
        if (!principal.permissions.includes(permission)) throw apiKeyRefusals.lacking(permission);
      }
      checkQuery(args.url, options);
      response = await fn({ ...args, principal, rateLimit });
    } catch (error) {
      response = errorResponse(error, args.request);
    }
    const states = [rateLimit.state(), addressState].filter((s): s is RateLimitState => s !== null && s !== undefined);
    const state = states.length > 0 ? tightest(states) : null;
    for (const [name, value] of Object.entries(state ? rateLimitHeaders(state) : {})) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    if (options.publishable) {
      response.headers.append("vary", "Origin");
      for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
    }
    return response;
  }, options.operationId);
}
