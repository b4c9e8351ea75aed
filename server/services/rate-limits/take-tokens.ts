import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db/client";
import { AppError } from "@/server/errors";

export type RateLimitState = {
  allowed: boolean;
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until `cost` tokens are available again (when refused). */
  retryAfterSeconds: number;
};

/**
 * Takes `cost` tokens from a bucket holding at most `limitPerMinute` and refilling continuously at that
 * rate. One atomic statement on a row in PostgreSQL, so the limit holds across app instances; a refused
 * request takes nothing. Time is the app's clock (`Date`), so tests can stop it and count requests exactly
 * however slow the machine is; a clock behind another instance's only refills nothing (the elapsed time never
 * goes below zero and the bucket's time never goes back).
 */
export async function takeTokens(
  db: Executor,
  subject: string,
  limitPerMinute: number,
  cost = 1,
): Promise<RateLimitState> {
  const perSecond = limitPerMinute / 60;
  const now = new Date().toISOString();
  const elapsed = sql`greatest(0::float8, extract(epoch from (${now}::timestamptz - b.updated_at))::float8)`;
  const refilled = sql`least(${limitPerMinute}::float8, b.tokens + ${elapsed} * ${perSecond}::float8)`;
  const [row] = rowsOf<{ tokens: number; allowed: boolean }>(
    await db.execute(sql`
      insert into rate_limit_buckets as b (subject, tokens, allowed, updated_at)
      values (${subject}, ${cost <= limitPerMinute ? limitPerMinute - cost : limitPerMinute}::float8, ${cost <= limitPerMinute}, ${now}::timestamptz)
      on conflict (subject) do update set
        tokens = case when ${refilled} >= ${cost}::float8 then ${refilled} - ${cost}::float8 else ${refilled} end,
        allowed = ${refilled} >= ${cost}::float8,
        updated_at = greatest(b.updated_at, ${now}::timestamptz)
      returning tokens, allowed`),
  );
  return bucketState(Number(row!.tokens), row!.allowed, limitPerMinute, cost);
}

/**
 * Puts back `cost` tokens a request took from a bucket before another of its buckets refused it (never above the
 * limit), so that a refused request takes nothing from any of them.
 */
export async function giveBackTokens(
  db: Executor,
  subject: string,
  limitPerMinute: number,
  cost: number,
): Promise<void> {
  if (cost <= 0) return;
  await db.execute(sql`
    update rate_limit_buckets set tokens = least(${limitPerMinute}::float8, tokens + ${cost}::float8)
    where subject = ${subject}`);
}

/** One bucket a request draws on: a key's, its account's, a dashboard user's. */
export type Bucket = { subject: string; limitPerMinute: number };

/**
 * Takes `cost` tokens from every bucket, in order, or from none: the first that refuses gets the earlier ones their
 * tokens back. `state` is the refusing bucket's (`refusedBy`), else the state of the one closest to exhaustion (what
 * the RateLimit-* headers tell).
 */
export async function takeFromBuckets(
  db: Executor,
  buckets: readonly Bucket[],
  cost: number,
): Promise<{ state: RateLimitState; refusedBy: Bucket | null }> {
  const states: RateLimitState[] = [];
  for (const [i, bucket] of buckets.entries()) {
    const state = await takeTokens(db, bucket.subject, bucket.limitPerMinute, cost);
    if (!state.allowed) {
      for (const taken of buckets.slice(0, i)) await giveBackTokens(db, taken.subject, taken.limitPerMinute, cost);
      return { state, refusedBy: bucket };
    }
    states.push(state);
  }
  return { state: tightest(states), refusedBy: null };
}

/** Of several buckets' states after one request, the one the client meets first: the fewest tokens left. */
export function tightest(states: readonly RateLimitState[]): RateLimitState {
  return states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

/** The state of a bucket holding `tokens` after a request of `cost`, as the RateLimit-* headers tell it. */
export function bucketState(tokens: number, allowed: boolean, limitPerMinute: number, cost: number): RateLimitState {
  const perSecond = limitPerMinute / 60;
  return {
    allowed,
    limit: limitPerMinute,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((limitPerMinute - tokens) / perSecond),
    retryAfterSeconds: Math.max(1, Math.ceil((cost - tokens) / perSecond)),
  };
}

/** The refusal of a request the bucket had no tokens for; the doors tell the client when to retry. */
export function rateLimited(state: RateLimitState, what: string): AppError {
  return new AppError("rate_limited", `${what}: retry in ${state.retryAfterSeconds} s.`, {
    details: {
      retryAfterSeconds: state.retryAfterSeconds,
      rateLimit: { limit: state.limit, remaining: state.remaining, resetSeconds: state.resetSeconds },
    },
  });
}
