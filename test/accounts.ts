import { getDb } from "@/db/client";
import { memberships } from "@/db/schema";
import { createAccount } from "@/server/services/accounts/create-account";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
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
  const key = await createApiKey(db, actor, {
    accountId,
    name: "test key",
    rateLimitPerMinute: options.rateLimitPerMinute,
  });
  return { ...user, accountId, key: key.key, keyId: key.id, profileId: profile.id };
}
