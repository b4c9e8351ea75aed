import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, memberships } from "@/db/schema";
import { AppError } from "@/server/errors";
import type { Actor } from "../authorization";
import type { AccountChoice } from "./list-my-accounts";

/**
 * Every account, for staff who support partners; staff act on any account with the staff role. The
 * staff user's own accounts come first, so the dashboard opens on theirs rather than on a partner's.
 */
export async function listAllAccounts(db: Executor, actor: Actor): Promise<AccountChoice[]> {
  if (!actor.isStaff) throw new AppError("forbidden", "Only staff can list every account.");
  const rows = await db
    .select({ id: accounts.id, name: accounts.name, timeZone: accounts.timeZone })
    .from(accounts)
    .leftJoin(memberships, and(eq(memberships.accountId, accounts.id), eq(memberships.userId, actor.userId)))
    .orderBy(sql`${memberships.userId} is null`, asc(accounts.name), asc(accounts.id));
  return rows.map((row) => ({ ...row, role: "staff" as const }));
}
