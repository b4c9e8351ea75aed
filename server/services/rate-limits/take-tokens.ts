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
