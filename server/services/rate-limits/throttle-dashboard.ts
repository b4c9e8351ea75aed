import type { Executor } from "@/db/client";
import { env } from "@/server/env";
import { accountBucket } from "@/server/services/api-keys/verify-api-key";
import { giveBackTokens, rateLimited, takeFromBuckets, type Bucket } from "./take-tokens";

/** The bucket of one signed-in user's dashboard calls (USER_RATE_LIMIT_PER_MINUTE). */
export const userBucket = (userId: string) => `user:${userId}`;

/**
 * The dashboard's validate, create, labels, statistics and courier check count against the same limits as the API:
 * `cost` requests against the signed-in user's limit and, when the call is about an account, against that account's
 * ceiling (all of its API keys and users together). Past either → 429 (`rate_limited`, with when to retry); a refused
 * call takes nothing.
 */
export async function throttleDashboard(
  db: Executor,
  caller: { userId: string; accountId?: string | null },
  cost: number,
): Promise<void> {
  const e = env();
  const user = { subject: userBucket(caller.userId), limitPerMinute: e.USER_RATE_LIMIT_PER_MINUTE };
  const buckets = caller.accountId
    ? [user, { subject: accountBucket(caller.accountId), limitPerMinute: e.ACCOUNT_RATE_LIMIT_PER_MINUTE }]
    : [user];
  const { state, refusedBy } = await takeFromBuckets(db, buckets, cost);
  if (!refusedBy) return;
  throw rateLimited(
    state,
    refusedBy === user
      ? `Too many dashboard requests (this one counts ${cost})`
      : "The account's rate limit (all of its API keys and users together) is exhausted",
  );
}

/** A bucket of a call's own beside the dashboard's, and what its refusal says. */
export type OwnBucket = Bucket & { refusal: string };

/**
 * `throttleDashboard` for a call that also draws one token from buckets of its own (a courier check: per profile, per
 * account and courier), all or none: a call refused by any of them takes nothing from the others.
 */
export async function throttleDashboardAndOwn(
  db: Executor,
  caller: { userId: string; accountId?: string | null },
  cost: number,
  own: readonly OwnBucket[],
): Promise<void> {
  const { state, refusedBy } = await takeFromBuckets(db, own, 1);
  if (refusedBy) throw rateLimited(state, (refusedBy as OwnBucket).refusal);
  try {
    await throttleDashboard(db, caller, cost);
  } catch (error) {
    for (const bucket of own) await giveBackTokens(db, bucket.subject, bucket.limitPerMinute, 1);
    throw error;
  }
}
