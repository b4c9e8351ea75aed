import type { Executor } from "@/db/client";
import { accounts, courierProfiles } from "@/db/schema";

/** The profile every account starts with, so the sandbox answers without `?profile=` from the first request. */
export const DEFAULT_SANDBOX_PROFILE = { courier: "sandbox", name: "Sandbox", service: "STANDARD" } as const;

/**
 * Creates an account with its default sandbox courier profile. Every way an account comes to exist (admin
 * CLI, seed, a later sign-up) goes through here, so no account is ever without a profile to create with.
 */
export async function createAccount(db: Executor, name: string): Promise<{ accountId: string }> {
  const [account] = await db.insert(accounts).values({ name }).returning({ id: accounts.id });
  const accountId = account!.id;
  await db.insert(courierProfiles).values({ accountId, ...DEFAULT_SANDBOX_PROFILE, isDefault: true, settings: {} });
  return { accountId };
}
