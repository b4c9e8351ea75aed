import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Executor } from "@/db/client";
import { accounts, memberships } from "@/db/schema";
import { enqueueJobs } from "@/server/queue/enqueue-jobs";
import { statisticsRebuildJob } from "@/server/queue/queues";
import { parseInput } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";

/** An IANA zone name the runtime knows (`Europe/Prague`, `UTC`); what PostgreSQL's `AT TIME ZONE` takes too. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const accountView = z.object({
  id: z.uuid(),
  name: z.string(),
  timeZone: z.string().describe("IANA time zone whose calendar days the statistics count in."),
});
export type AccountView = z.infer<typeof accountView>;

/** What the dashboard's settings page shows besides the view: whether the figures are being recounted. */
export type AccountSettings = AccountView & { statisticsRebuildSince: string | null };

export const updateAccountInput = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters").optional(),
    timeZone: z
      .string()
      .refine(isTimeZone, "must be an IANA time zone name, such as Europe/Prague")
      .optional()
      .describe("An IANA time zone name, such as `Europe/Prague`."),
  })
  .strict()
  .refine((v) => v.name !== undefined || v.timeZone !== undefined, {
    message: "give name or timeZone",
    path: ["body"],
  });

const toSettings = (row: typeof accounts.$inferSelect): AccountSettings => ({
  id: row.id,
  name: row.name,
  timeZone: row.timeZone,
  statisticsRebuildSince: row.statisticsRebuildSince?.toISOString() ?? null,
});

export const toAccountView = ({ id, name, timeZone }: AccountSettings): AccountView => ({ id, name, timeZone });

/** The account's settings; members and staff. */
export async function getAccountSettings(db: Executor, actor: Actor, accountId: string): Promise<AccountSettings> {
  await accountAccess(db, actor, accountId);
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return toSettings(row!);
}

/**
 * Renames the account or changes its time zone; owners and staff. A new time zone moves every counted day, so
 * it queues a rebuild of the account's statistics in the same transaction (`statisticsRebuildSince` until done).
 */
export async function updateAccountSettings(
  db: Db,
  actor: Actor,
  accountId: string,
  raw: unknown,
  audit: AuditContext = {},
): Promise<AccountSettings> {
  const input = parseInput(updateAccountInput, raw);
  return db.transaction(async (tx) => {
    await accountAccess(tx, actor, accountId, { write: true });
    const [before] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for("update");
    const zoneChanged = input.timeZone !== undefined && input.timeZone !== before!.timeZone;
    const [row] = await tx
      .update(accounts)
      .set({
        name: input.name ?? before!.name,
        ...(zoneChanged ? { timeZone: input.timeZone, statisticsRebuildSince: new Date() } : {}),
      })
      .where(eq(accounts.id, accountId))
      .returning();
    // One rebuild per account however many changes come in a row: it reads the zone when it runs.
    if (zoneChanged) await enqueueJobs(tx, [statisticsRebuildJob(accountId)]);
    await recordAudit(tx, {
      ...audit,
      accountId,
      actorUserId: actor.userId,
      action: "account.updated",
      targetId: accountId,
      details: {
        name: input.name ?? before!.name,
        ...(zoneChanged ? { timeZone: input.timeZone, previousTimeZone: before!.timeZone } : {}),
      },
    });
    return toSettings(row!);
  });
}

export const accountChoiceView = accountView.extend({
  role: z.enum(["owner", "member"]).describe("Owners change the account's settings, keys, sources and profiles."),
});
export type AccountChoiceView = z.infer<typeof accountChoiceView>;

/** The accounts the user belongs to, by name: where a partner finds the id the private API's reads take. */
export async function listAccountSettings(db: Executor, actor: Actor): Promise<{ items: AccountChoiceView[] }> {
  const items = await db
    .select({ id: accounts.id, name: accounts.name, timeZone: accounts.timeZone, role: memberships.role })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, actor.userId))
    .orderBy(asc(accounts.name), asc(accounts.id));
  return { items };
}
