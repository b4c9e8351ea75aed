import { addressLimitKey } from "@/server/services/rate-limits/address-key";

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
