import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { throttleWebhookAction } from "../rate-limits/throttle-webhook-action";
import { enqueueDeliveries } from "../events/record-events";
import { findEndpointForActor } from "./find-endpoint-for-actor";

/**
 * Sends a delivery again now, whatever its status: it becomes pending with a fresh retry schedule. The
 * attempt counter goes on, so a job still queued for an earlier attempt finds itself stale and does nothing.
 */
export async function resendWebhookDelivery(db: Db, actor: Actor, id: string, audit: AuditContext = {}): Promise<void> {
  if (!isUuid(id)) throw notFound("Webhook delivery");
  await db.transaction(async (tx) => {
    const [delivery] = await tx
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, id))
      .limit(1)
      .for("update");
    if (!delivery) throw notFound("Webhook delivery");
    try {
      await findEndpointForActor(tx, actor, delivery.endpointId, { write: true });
      await throttleWebhookAction(tx, delivery.accountId, "resend");
    } catch (error) {
      if ((error as { code?: string }).code === "not_found") throw notFound("Webhook delivery");
      throw error;
    }
    await tx
      .update(webhookDeliveries)
      // An attempt still in flight is fenced off (its token is cleared): the resend's attempt owns the delivery.
      .set({
        status: "pending",
        nextAttemptAt: new Date(),
        scheduleStart: delivery.attempts,
        jobId: null,
        leaseUntil: null,
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    await enqueueDeliveries(tx, [
      { deliveryId: delivery.id, attempt: delivery.attempts, endpointId: delivery.endpointId },
    ]);
    await recordAudit(tx, {
      ...audit,
      accountId: delivery.accountId,
      actorUserId: actor.userId,
      action: "webhook_delivery.resent",
      targetId: delivery.id,
      details: { endpointId: delivery.endpointId, eventId: delivery.eventId },
    });
  });
}
