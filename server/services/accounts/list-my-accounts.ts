import { asc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, memberships, type MembershipRole } from "@/db/schema";
import type { Actor } from "../authorization";

/**
 * An account as the dashboard's account switcher shows it, with what the actor may do there and the time zone its
 * times are shown in.
 */
export type AccountChoice = { id: string; name: string; role: MembershipRole | "staff"; timeZone: string };

/** The accounts the actor is a member of, by name. */
export async function listMyAccounts(db: Executor, actor: Actor): Promise<AccountChoice[]> {
  return db
    .select({ id: accounts.id, name: accounts.name, role: memberships.role, timeZone: accounts.timeZone })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, actor.userId))
    .orderBy(asc(accounts.name), asc(accounts.id));
}
