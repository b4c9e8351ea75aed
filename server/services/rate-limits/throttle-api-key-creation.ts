import type { Executor } from "@/db/client";
import { rateLimited, takeFromBuckets } from "./take-tokens";

/**
 * API keys created a minute, per signed-in user and per account, at either door (the private API and the dashboard):
 * each key is a row every request may look up and a bucket of its own, so creating them is not free. The numbers are
 * in the OpenAPI document beside the operation.
 */
export const API_KEY_CREATION_LIMITS = {
  user: { perMinute: 10, what: "Too many API keys created by this user" },
  account: { perMinute: 20, what: "Too many API keys created for this account" },
} as const;

/** Past either limit → 429 (`rate_limited`, with when to retry); a refused creation takes nothing from either. */
export async function throttleApiKeyCreation(
  db: Executor,
  caller: { userId: string; accountId: string },
): Promise<void> {
  const user = {
    subject: `api-key-create-user:${caller.userId}`,
    limitPerMinute: API_KEY_CREATION_LIMITS.user.perMinute,
  };
  const account = {
    subject: `api-key-create:${caller.accountId}`,
    limitPerMinute: API_KEY_CREATION_LIMITS.account.perMinute,
  };
  const { state, refusedBy } = await takeFromBuckets(db, [user, account], 1);
  if (!refusedBy) return;
  throw rateLimited(state, API_KEY_CREATION_LIMITS[refusedBy === user ? "user" : "account"].what);
}
