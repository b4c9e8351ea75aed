import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from "@/db/schema";
import { enqueueJobs } from "@/server/jobs/boss";
import { deliveryJobExpirySeconds, QUEUES, type DeliveryJob } from "@/server/jobs/queues";
import { env } from "@/server/env";

export type EventDraft = {
  type: string;
  referenceSource: string | null;
  sourceIdentifier: string | null;
  orderId?: string | null;
  data: Record<string, unknown>;
};

type RecordedEvent = { id: string; type: string; referenceSource: string | null; sourceIdentifier: string | null };

/**
 * Appends events inside the caller's transaction, with a pending delivery and its job for every enabled
 * endpoint of the account that subscribes to the event's type and source pair: the state change, its events
 * and their deliveries commit together or not at all. One statement per table, whatever the batch size.
 */
export async function recordEvents(
  tx: Executor,
  accountId: string,
  drafts: EventDraft[],
  { endpoint }: { endpoint?: WebhookEndpointRow } = {},
): Promise<string[]> {
  if (drafts.length === 0) return [];
  const recorded = await tx
    .insert(events)
    .values(
      drafts.map((d) => ({
        accountId,
        type: d.type,
        referenceSource: d.referenceSource,
        sourceIdentifier: d.sourceIdentifier,
        orderId: d.orderId ?? null,
        data: d.data,
      })),
    )
    .returning({
      id: events.id,
      type: events.type,
      referenceSource: events.referenceSource,
      sourceIdentifier: events.sourceIdentifier,
    });
  const endpoints = endpoint
    ? [endpoint]
    : await tx
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.enabled, true)));
  const pairs = recorded.flatMap((event) =>
    endpoints.filter((e) => endpoint || subscribes(e, event)).map((e) => ({ event, endpoint: e })),
  );
  if (pairs.length > 0) {
    const deliveries = await tx
      .insert(webhookDeliveries)
      .values(pairs.map((p) => ({ accountId, endpointId: p.endpoint.id, eventId: p.event.id })))
      .returning({ id: webhookDeliveries.id });
    await enqueueDeliveries(
      tx,
      deliveries.map((d) => ({ deliveryId: d.id, attempt: 0 })),
    );
  }
  return recorded.map((e) => e.id);
}

/** An endpoint takes the types it lists, from the source pairs it lists (every pair when it lists none). */
export function subscribes(
  endpoint: Pick<WebhookEndpointRow, "eventTypes" | "sources">,
  event: RecordedEvent,
): boolean {
  if (!endpoint.eventTypes.includes(event.type)) return false;
  if (!endpoint.sources) return true;
  return endpoint.sources.some(
    (s) => s.referenceSource === event.referenceSource && s.sourceIdentifier === event.sourceIdentifier,
  );
}

/**
 * Delivery attempts as jobs, through `executor` (the transaction that decided them). The delay counts on the
 * database's clock, which every worker shares.
 */
export function enqueueDeliveries(executor: Executor, jobs: DeliveryJob[], delaySeconds = 0): Promise<void> {
  const expireInSeconds = deliveryJobExpirySeconds(env().WEBHOOK_TIMEOUT_MS);
  return enqueueJobs(
    executor,
    jobs.map((data) => ({
      name: QUEUES.webhookDelivery,
      data,
      expireInSeconds,
      ...(delaySeconds > 0 ? { startAfter: String(delaySeconds) } : {}),
    })),
  );
}
