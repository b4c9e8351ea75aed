import { queryRows, uuidArray, type Executor } from "@/db/client";
import type { WebhookEndpointRow } from "@/db/schema";
import { enqueueJobs } from "@/server/queue/enqueue-jobs";
import { deliveryQueue, type DeliveryJob } from "@/server/queue/queues";

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
  { endpoint }: { endpoint?: SubscribedEndpoint } = {},
): Promise<string[]> {
  if (drafts.length === 0) return [];
  const rows = drafts.map((d) => ({
    type: d.type,
    reference_source: d.referenceSource,
    source_identifier: d.sourceIdentifier,
    order_id: d.orderId ?? null,
    data: d.data,
  }));
  const recorded = await queryRows<RecordedEvent & { id: string }>(tx, INSERT_EVENTS, [
    accountId,
    JSON.stringify(rows),
  ]);
  const endpoints = endpoint ? [endpoint] : await queryRows<SubscribedEndpoint>(tx, SUBSCRIBED_ENDPOINTS, [accountId]);
  const pairs = recorded.flatMap((event) =>
    endpoints.filter((e) => endpoint || subscribes(e, event)).map((e) => ({ event, endpoint: e })),
  );
  if (pairs.length > 0) {
    const deliveries = await queryRows<{ id: string; endpointId: string }>(tx, INSERT_DELIVERIES, [
      accountId,
      uuidArray(pairs.map((p) => p.endpoint.id)),
      uuidArray(pairs.map((p) => p.event.id)),
    ]);
    await enqueueDeliveries(
      tx,
      deliveries.map((d) => ({ deliveryId: d.id, attempt: 0, endpointId: d.endpointId })),
    );
  }
  return recorded.map((e) => e.id);
}

/** What deciding a delivery needs of an endpoint. */
type SubscribedEndpoint = Pick<WebhookEndpointRow, "id" | "eventTypes" | "sources">;

// Written once as text (db/client.ts `queryRows`): every order change runs them, and drizzle would build them
// anew each time. Events as one JSON parameter (db/insert-rows.ts explains why).
const INSERT_EVENTS = `
  insert into events (account_id, type, reference_source, source_identifier, order_id, data)
  select $1::uuid, r.type, r.reference_source, r.source_identifier, r.order_id, r.data
  from json_to_recordset($2::json) as r(type text, reference_source text, source_identifier text, order_id uuid, data jsonb)
  returning id, type, reference_source as "referenceSource", source_identifier as "sourceIdentifier"`;

const SUBSCRIBED_ENDPOINTS = `
  select id, event_types as "eventTypes", sources
  from webhook_endpoints where account_id = $1 and enabled`;

const INSERT_DELIVERIES = `
  insert into webhook_deliveries (account_id, endpoint_id, event_id)
  select $1::uuid, e, v from unnest($2::uuid[], $3::uuid[]) as t(e, v)
  returning id, endpoint_id as "endpointId"`;

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
 * Delivery attempts as jobs on their endpoints' queues, through `executor` (the transaction that decided them).
 * The delay counts on the database's clock, which every worker shares. No expiry is set here: the job's expiry no
 * longer guards the attempt (the worker that runs it takes a lease from its own timeout, deliver-webhook.ts), and
 * the queue's own (server/queue/queues.ts) applies.
 */
/** The priority of a delivery job handed back unsent (the pump's `handBack`): it keeps its place in the line. */
const HANDED_BACK_PRIORITY = 1;

export function enqueueDeliveries(
  executor: Executor,
  jobs: (DeliveryJob & { endpointId: string })[],
  delaySeconds = 0,
  { ahead = false }: { ahead?: boolean } = {},
): Promise<void> {
  return enqueueJobs(
    executor,
    jobs.map((data) => ({
      name: deliveryQueue(data.endpointId),
      data,
      ...(delaySeconds > 0 ? { startAfter: String(delaySeconds) } : {}),
      // pg-boss fetches by priority, then age: a job handed back unsent goes ahead of those queued after it.
      ...(ahead ? { priority: HANDED_BACK_PRIORITY } : {}),
    })),
  );
}
