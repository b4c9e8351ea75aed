import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { findEndpointForActor } from "./find-endpoint-for-actor";

/**
 * Removes the endpoint and its delivery log; jobs still queued for it find nothing to do. Its delivery queue is
 * dropped by the sweep (server/queue/delivery-queues.ts, `dropOrphanDeliveryQueues` says why not here).
 */
export async function deleteWebhookEndpoint(db: Db, actor: Actor, id: string, audit: AuditContext = {}): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findEndpointForActor(tx, actor, id, { write: true, lock: true });
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
    await recordAudit(tx, {
      ...audit,
      accountId: row.accountId,
      actorUserId: actor.userId,
      action: "webhook_endpoint.deleted",
      targetId: row.id,
      details: { url: row.url },
    });
  });
}
