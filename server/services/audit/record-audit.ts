import type { Executor } from "@/db/client";
import { auditEvents } from "@/db/schema";

/** Where a change came from: the client address as the proxy reports it. */
export type AuditContext = { ip?: string | null };

export type AuditEntry = AuditContext & {
  accountId: string | null;
  actorUserId: string | null;
  action: string;
  targetId?: string | null;
  details?: Record<string, unknown>;
};

/** Appends to the audit trail inside the caller's transaction, so a change and its record commit together. */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    accountId: entry.accountId,
    actorUserId: entry.actorUserId,
    action: entry.action,
    targetId: entry.targetId ?? null,
    details: entry.details ?? {},
    ip: entry.ip ?? null,
  });
}
