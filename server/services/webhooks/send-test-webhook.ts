import type { Db } from "@/db/client";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { throttleWebhookAction } from "../rate-limits/throttle-webhook-action";
import { TEST_EVENT_TYPE } from "../events/event-types";
import { recordEvents } from "../events/record-events";
import { findEndpointForActor } from "./find-endpoint-for-actor";

/**
 * Queues a `webhook.test` event for this endpoint only (also when it is disabled, so a partner can check a
 * receiver before enabling it). It shows in the endpoint's delivery log, not in the event feed.
 */
export async function sendTestWebhook(
  db: Db,
  actor: Actor,
  id: string,
  audit: AuditContext = {},
): Promise<{ eventId: string }> {
  return db.transaction(async (tx) => {
    const endpoint = await findEndpointForActor(tx, actor, id, { write: true });
    await throttleWebhookAction(tx, endpoint.accountId, "test");
    const [eventId] = await recordEvents(
      tx,
      endpoint.accountId,
      [
        {
          type: TEST_EVENT_TYPE,
          referenceSource: null,
          sourceIdentifier: null,
          data: { webhookEndpointId: endpoint.id, message: "A test event sent from the platform." },
        },
      ],
      { endpoint },
    );
    await recordAudit(tx, {
      ...audit,
      accountId: endpoint.accountId,
      actorUserId: actor.userId,
      action: "webhook_endpoint.test_sent",
      targetId: endpoint.id,
      details: { eventId },
    });
    return { eventId: eventId! };
  });
}
