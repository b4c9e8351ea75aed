import { getDb } from "@/db/client";
import { apiKeys, memberships } from "@/db/schema";
import { API_KEY_PERMISSIONS } from "@/lib/api-key-permissions";
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from "@/server/auth/api-key-secret";
import { createAccount } from "@/server/services/accounts/create-account";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import type { TestUser } from "./helpers";
import type { Partner } from "./partner";

/**
 * A fresh partner (account, owner membership, a default sandbox profile, API key) for an existing user, without
 * hashing a new password: for suites that need a clean account per property run, where `createPartner`'s
 * argon2 hash would dominate the run time.
 */
export async function partnerInNewAccount(
  user: TestUser,
  options: { rateLimitPerMinute?: number } = {},
): Promise<Partner> {
  const db = await getDb();
  const { accountId } = await createAccount(db, `Account of ${user.email}`);
  await db.insert(memberships).values({ userId: user.userId, accountId, role: "owner" });
  const actor = { userId: user.userId, isStaff: false };
  const profile = await createCourierProfile(db, actor, {
    accountId,
    courier: "sandbox",
    name: "Sandbox",
    service: "STANDARD",
    isDefault: true,
  });
  // Written as the row createApiKey writes, not through it: a property run makes more accounts of one user a minute
  // than key creation's per-user throttle lets through.
  const key = generateApiKey(API_KEY_PREFIX);
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId,
      name: "test key",
      keyHash: hashApiKey(key),
      suffix: key.slice(-4),
      permissions: [...API_KEY_PERMISSIONS],
      rateLimitPerMinute: options.rateLimitPerMinute ?? 600,
      createdByUserId: user.userId,
    })
    .returning({ id: apiKeys.id });
  return { ...user, accountId, key, keyId: row!.id, profileId: profile.id };
}
