import { getDb } from "@/db/client";
import { accounts, memberships } from "@/db/schema";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import type { TestUser } from "./helpers";
import type { Partner } from "./partner";

/**
 * A fresh partner (account, owner membership, sandbox profile, API key) for an existing user, without
 * hashing a new password: for suites that need a clean account per property run, where `createPartner`'s
 * argon2 hash would dominate the run time.
 */
export async function partnerInNewAccount(
  user: TestUser,
  options: { rateLimitPerMinute?: number } = {},
): Promise<Partner> {
  const db = await getDb();
  const [account] = await db
    .insert(accounts)
    .values({ name: `Account of ${user.email}` })
    .returning({ id: accounts.id });
  const accountId = account!.id;
  await db.insert(memberships).values({ userId: user.userId, accountId, role: "owner" });
  const actor = { userId: user.userId, isStaff: false };
  const profile = await createCourierProfile(db, actor, {
    accountId,
    courier: "sandbox",
    name: "Sandbox",
    service: "STANDARD",
  });
  const key = await createApiKey(db, actor, {
    accountId,
    name: "test key",
    rateLimitPerMinute: options.rateLimitPerMinute,
  });
  return { ...user, accountId, key: key.key, keyId: key.id, profileId: profile.id };
}
