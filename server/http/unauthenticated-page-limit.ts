import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { addressLimitKey } from "@/server/services/rate-limits/address-key";
import { problemBody } from "./problem";

/**
 * Pages a minute one client address (an IPv6 client per /64) may load without a live session: a person reading the
 * docs, signing in or picking a pickup point in a shop's checkout stays far below it. The bucket holds this many and
 * refills continuously at this rate.
 */
export const UNAUTHENTICATED_PAGES_PER_MINUTE = 120;

/** Addresses remembered at once; past it the one seen longest ago is forgotten (it starts again with a full bucket). */
const MAX_ADDRESSES = 50_000;

export type PageLimitState = { allowed: boolean; retryAfterSeconds: number };

/**
 * A token bucket per client address, in this process's memory. Each web process guards its own CPU, which is what a
 * page costs, and a page request costs no database statement; a signed-in user's pages are never counted. A missing
 * address counts under the one key `unknown` (addressLimitKey): no address never means no limit.
 */
export function unauthenticatedPageLimiter({
  limitPerMinute = UNAUTHENTICATED_PAGES_PER_MINUTE,
  maxAddresses = MAX_ADDRESSES,
  now = () => Date.now(),
}: { limitPerMinute?: number; maxAddresses?: number; now?: () => number } = {}) {
  const perMs = limitPerMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return function takePage(address: string | null): PageLimitState {
    const key = addressLimitKey(address);
    const at = now();
    const bucket = buckets.get(key);
    const tokens = bucket
      ? Math.min(limitPerMinute, bucket.tokens + Math.max(0, at - bucket.at) * perMs)
      : limitPerMinute;
    const allowed = tokens >= 1;
    // Deleted and set again: the map's first key is then always the address seen longest ago.
    buckets.delete(key);
    buckets.set(key, { tokens: allowed ? tokens - 1 : tokens, at: Math.max(at, bucket?.at ?? at) });
    if (buckets.size > maxAddresses) buckets.delete(buckets.keys().next().value!);
    return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
  };
}

/**
 * Set by the app's own HTTP server on a page request it already counted against the address's bucket (any copy a
 * client sends is removed first): proxy.ts then does not count it again.
 */
export const PAGE_COUNTED_HEADER = "x-sop-page-counted";

/** A document request: not the API, not Next's static files (proxy.ts's page matcher, read from the raw URL). */
const NOT_A_PAGE = /^\/(?:api\/|_next\/|favicon\.ico|icon\.svg)/;
/** next-auth's session cookie, plain or `__Secure-`, whole or chunked (`.0`, `.1`). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?next-auth\.session-token(?:\.\d+)?=/;

/**
 * The per-address page limit at the front of the app's HTTP server, before Next: a page request that carries no
 * session cookie at all is counted here, and past the limit answered 429 by node:http itself, which costs a fraction
 * of a millisecond where Next's own handling of even a refused request costs several; a flood from one address then
 * stays cheap. A request with a session cookie goes on to proxy.ts, which verifies the cookie and counts the request
 * there when it does not hold (so a forged cookie buys nothing but the dearer refusal).
 */
export function withUnauthenticatedPageLimit(
  addressOf: (req: IncomingMessage) => string | null,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
  takePage: (address: string | null) => PageLimitState = unauthenticatedPageLimiter(),
): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void {
  return (req, res) => {
    delete req.headers[PAGE_COUNTED_HEADER];
    const page = (req.method === "GET" || req.method === "HEAD") && !NOT_A_PAGE.test(req.url ?? "/");
    if (page && !SESSION_COOKIE.test(req.headers.cookie ?? "")) {
      const limit = takePage(addressOf(req));
      if (!limit.allowed) {
        const body = problemBody(429, unauthenticatedPagesRefusal(limit.retryAfterSeconds), { code: "rate_limited" });
        res.writeHead(429, {
          "content-type": "application/problem+json",
          "retry-after": String(limit.retryAfterSeconds),
          "x-request-id": randomUUID(),
          "cache-control": "no-store",
        });
        res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
        return;
      }
      req.headers[PAGE_COUNTED_HEADER] = "1";
    }
    return handle(req, res);
  };
}

/** What a page request past the limit is told, by the app's server or by proxy.ts. */
export const unauthenticatedPagesRefusal = (retryAfterSeconds: number) =>
  `More than ${UNAUTHENTICATED_PAGES_PER_MINUTE} pages a minute from this address without signing in: retry in ${retryAfterSeconds} s.`;
