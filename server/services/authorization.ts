import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, memberships, type MembershipRole } from "@/db/schema";
import { AppError, notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";

/** A signed-in dashboard user (private API token or next-auth session). */
export type Actor = { userId: string; isStaff: boolean };

export type AccountAccess = { accountId: string; role: MembershipRole | "staff" };

/**
 * The actor's access to an account. Not a member (and not staff), malformed id, or no such account → 404,
 * so account ids of others cannot be probed. `write` additionally requires the owner role (or staff).
 */
export async function accountAccess(
  db: Executor,
  actor: Actor,
  accountId: string,
  { write = false }: { write?: boolean } = {},
): Promise<AccountAccess> {
  if (!isUuid(accountId)) throw notFound("Account");
  if (actor.isStaff) {
    const [account] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
    if (!account) throw notFound("Account");
    return { accountId, role: "staff" };
  }
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, actor.userId), eq(memberships.accountId, accountId)))
    .limit(1);
  if (!membership) throw notFound("Account");
  if (write && membership.role !== "owner") throw ownerOnly();
  return { accountId, role: membership.role };
}

/** A member, not an owner, asked to change the account. */
export const ownerOnly = () =>
  new AppError("forbidden", "Only an owner of the account can change its integration settings.");

/** A user of several accounts named none. */
export const accountIdRequired = () =>
  new AppError("bad_request", "accountId is required.", { errors: [{ field: "accountId", message: "required" }] });

/** The account a request names (`accountId`), else the actor's only account. */
export async function accountIdOrDefault(db: Executor, actor: Actor, accountId: string | undefined): Promise<string> {
  return accountId || defaultAccountId(db, actor);
}

/** The account to use when a request names none: the actor's only account, else a 400 asking for it. */
export async function defaultAccountId(db: Executor, actor: Actor): Promise<string> {
  const rows = await db
    .select({ accountId: memberships.accountId })
    .from(memberships)
    .where(eq(memberships.userId, actor.userId))
    .limit(2);
  if (rows.length === 1) return rows[0]!.accountId;
  throw accountIdRequired();
}
