import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sources } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";

/** Deactivates a pair: new orders naming it are refused with 422; existing orders keep it. */
export async function deactivateSource(db: Db, actor: Actor, id: string, audit: AuditContext = {}): Promise<void> {
  if (!isUuid(id)) throw notFound("Source");
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(sources).where(eq(sources.id, id)).for("update");
    if (!row) throw notFound("Source");
    await accountAccess(tx, actor, row.accountId, { write: true }).catch((error: { code?: string }) => {
      throw error.code === "not_found" ? notFound("Source") : error;
    });
    await tx.delete(sources).where(eq(sources.id, id));
    await recordAudit(tx, {
      ...audit,
      accountId: row.accountId,
      actorUserId: actor.userId,
      action: "source.deactivated",
      targetId: id,
      details: { referenceSource: row.referenceSource, sourceIdentifier: row.sourceIdentifier },
    });
  });
}
