import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { findKeyForActor } from "./find-key-for-actor";

/** Revokes a key; the very next request with it is refused (verification reads `revoked_at` every time). */
export async function revokeApiKey(db: Db, actor: Actor, id: string, audit: AuditContext = {}): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findKeyForActor(tx, actor, id, { lock: true });
    await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(eq(apiKeys.id, row.id));
    await recordAudit(tx, {
      ...audit,
      accountId: row.accountId,
      actorUserId: actor.userId,
      action: "api_key.revoked",
      targetId: row.id,
      details: { name: row.name },
    });
  });
}
