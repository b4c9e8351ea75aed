import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import type { ApiKeyPrincipal } from "@/server/services/api-keys/verify-api-key";
import { addressLimitKey } from "@/server/services/rate-limits/address-key";
import { rateLimited, takeTokens, type RateLimitState } from "@/server/services/rate-limits/take-tokens";

/** Every refusal particular to a publishable key: the wrapper throws these, the document shows them. */
export const publishableRefusals = {
  elsewhere: () =>
    new AppError(
      "forbidden",
      "A publishable key (svc_pk_…) may only search pickup points (GET /api/v2/couriers/{courier_id}/pickup-points and …/{id}). " +
        "Call this operation from your server with a secret key.",
    ),
  noOrigin: () =>
    new AppError(
      "forbidden",
      "A publishable key is answered only to web pages of its allowedOrigins, and this request carries no Origin header. " +
        "Call from your server with a secret key.",
    ),
  foreignOrigin: (origin: string) =>
    new AppError("forbidden", `The origin ${origin} is not one of this publishable key's allowedOrigins.`),
  addressExhausted: (state: RateLimitState) =>
    rateLimited(state, "The publishable key's rate limit for this client address is exhausted"),
};

/** What a browser may read of an answer to another origin, besides the body and the CORS-safelisted headers. */
const EXPOSED = "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * The origin a publishable key's request is answered to: its `Origin` when the key lists it; null for the widget's own
 * dialog page, a same-origin request that browsers send without `Origin` (`Sec-Fetch-Site: same-origin`, a header no
 * page can set). Any other request is refused: a missing `Origin` means no browser page sent it, and a publishable key
 * is for browsers only.
 */
export function publishableOrigin(request: Request, principal: ApiKeyPrincipal): string | null {
  const origin = request.headers.get("origin");
  const own = new URL(env().PUBLIC_URL).origin;
  if (origin === null || origin === own) {
    if (origin === own || request.headers.get("sec-fetch-site") === "same-origin") return null;
    throw publishableRefusals.noOrigin();
  }
  if (!principal.allowedOrigins.includes(origin)) throw publishableRefusals.foreignOrigin(origin);
  return origin;
}

/**
 * Per client address (an IPv6 client per /64), within one publishable key: every shopper of a shop shares the key's
 * own limit, this keeps one address from spending it (PUBLISHABLE_KEY_ADDRESS_RATE_LIMIT_PER_MINUTE).
 */
export async function takeAddressToken(db: Executor, principal: ApiKeyPrincipal, ip: string | null) {
  const state = await takeTokens(
    db,
    `publishable:${principal.keyId}:${addressLimitKey(ip)}`,
    env().PUBLISHABLE_KEY_ADDRESS_RATE_LIMIT_PER_MINUTE,
  );
  if (!state.allowed) throw publishableRefusals.addressExhausted(state);
  return state;
}

/** The headers that let the page at `origin` read an answer (none for the widget's own, same-origin page). */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED };
}

/** Whether any active publishable key lists `origin`: a preflight carries no key, only the page's origin. */
async function someKeyAllows(db: Executor, origin: string): Promise<boolean> {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.kind, "publishable"), isNull(apiKeys.revokedAt), sql`${origin} = any(${apiKeys.allowedOrigins})`),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The CORS preflight (OPTIONS) of a route that takes publishable keys. The browser sends it without the key, so the
 * origin is allowed here when some active publishable key lists it; the request itself is then checked against its
 * own key's origins. An origin no key lists gets a 403 without CORS headers, which the browser reports as refused.
 */
export async function preflight(db: Executor, request: Request): Promise<Response> {
  const origin = request.headers.get("origin");
  if (!origin || !(await someKeyAllows(db, origin))) throw publishableRefusals.foreignOrigin(origin ?? "(none)");
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "GET, OPTIONS",
      "access-control-allow-headers": "Authorization, X-API-Key, X-Request-Id",
      "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
      vary: "Origin",
    },
  });
}
