import type { Executor } from "@/db/client";
import { recordAudit, type AuditEntry } from "./record-audit";

/** What an audit entry's details say made a change that no signed-in user made. */
export const ADMIN_CLI = "admin-cli";

/**
 * Appends a change made with the admin CLI (`npm run admin`) to the audit trail: nobody is signed in there, so the
 * entry has no actor user and its details name the CLI (`via: "admin-cli"`), from no client address.
 */
export async function recordCliAudit(
  db: Executor,
  entry: Omit<AuditEntry, "actorUserId" | "ip" | "details"> & { details: Record<string, unknown> },
): Promise<void> {
  await recordAudit(db, { ...entry, actorUserId: null, ip: null, details: { ...entry.details, via: ADMIN_CLI } });
}
