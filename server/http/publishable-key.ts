import type { Executor } from "@/db/client";
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

/** Whom a publishable key's request is answered to, or why not: decided from its headers alone, before anything is counted. */
export type PageOrigin = { origin: string | null; refusal?: undefined } | { origin?: undefined; refusal: AppError };

/**
 * The origin a publishable key's request is answered to: its `Origin` when the key lists it; null for the widget's own
 * dialog page, a same-origin request that browsers send without `Origin` (`Sec-Fetch-Site: same-origin`, a header no
 * page can set). Any other request is refused: a missing `Origin` means no browser page sent it.
 * This holds against web pages only, which cannot set `Origin` or `Sec-Fetch-Site`: a script outside a browser sends
 * whatever headers it likes, its shop's `Origin` or `Sec-Fetch-Site: same-origin` included. A publishable key is
 * public and reads only the public directory, and what limits anyone holding it is its rate limits, the per-address
 * one first (`takeAddressToken`); the refusal of a request without `Origin` is guidance to a server's developer.
 */
export function publishableOrigin(request: Request, principal: ApiKeyPrincipal): PageOrigin {
  const origin = request.headers.get("origin");
  const own = new URL(env().PUBLIC_URL).origin;
  if (origin === null || origin === own) {
    if (origin === own || request.headers.get("sec-fetch-site") === "same-origin") return { origin: null };
    return { refusal: publishableRefusals.noOrigin() };
  }
  if (!principal.allowedOrigins.includes(origin)) return { refusal: publishableRefusals.foreignOrigin(origin) };
  return { origin };
}

/**
 * Per client address (an IPv6 client per /64), within one publishable key: every shopper of a shop shares the key's
 * own limit, this keeps one address from spending it (PUBLISHABLE_KEY_ADDRESS_RATE_LIMIT_PER_MINUTE). Taken before
 * any other check of the request, and the only token a refused request takes: a flood of refused requests from one
 * address stops here and never reaches the key's or the account's bucket.
 */
export function takeAddressToken(db: Executor, principal: ApiKeyPrincipal, ip: string | null): Promise<RateLimitState> {
  return takeTokens(
    db,
    `publishable:${principal.keyId}:${addressLimitKey(ip)}`,
    env().PUBLISHABLE_KEY_ADDRESS_RATE_LIMIT_PER_MINUTE,
  );
}

/** The headers that let the page at `origin` read an answer (none for the widget's own, same-origin page). */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED };
}
