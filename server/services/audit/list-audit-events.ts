import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { auditEvents, users } from "@/db/schema";
import { AppError } from "@/server/errors";
import { formatMillis } from "@/server/time";
import { accountAccess, type Actor } from "../authorization";
import { envelope, offsetOf, type Page, type Paging } from "../pagination";
import { millisTime } from "@/server/time";

export const auditEventView = z.object({
  id: z.uuid(),
  action: z
    .string()
    .describe(
      "e.g. api_key.created, api_key.updated, api_key.revoked, source.activated, source.deactivated, courier_profile.created, courier_profile.default_set, user.signed_in",
    ),
  actor: z.string().nullable().describe("Email of the user who acted"),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  created: millisTime,
});

export type AuditEventView = z.infer<typeof auditEventView>;

export const membersCannotAudit = () => new AppError("forbidden", "Only owners and staff can read the audit trail.");

/** The account's audit trail, newest first; owners and staff only (it shows who did what from where). */
export async function listAuditEvents(
  db: Executor,
  actor: Actor,
  accountId: string,
  paging: Paging,
): Promise<Page<AuditEventView>> {
  const access = await accountAccess(db, actor, accountId);
  if (access.role === "member") throw membersCannotAudit();
  const where = eq(auditEvents.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ event: auditEvents, email: users.email })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorUserId))
      .where(and(where))
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(paging.pageSize)
      .offset(offsetOf(paging)),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return envelope(
    rows.map(({ event, email }) => ({
      id: event.id,
      action: event.action,
      actor: email,
      targetId: event.targetId,
      details: event.details,
      ip: event.ip,
      created: formatMillis(event.createdAt),
    })),
    total?.n ?? 0,
    paging,
  );
}
