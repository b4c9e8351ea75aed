import { and, count, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { events, webhookDeliveries, type WebhookDeliveryStatus } from "@/db/schema";
import type { Actor } from "../authorization";
import { envelope, offsetOf, type Page, type Paging } from "../pagination";
import { findEndpointForActor } from "./find-endpoint-for-actor";
import { toWebhookDeliveryView, type WebhookDeliveryView } from "./schemas";

/** An endpoint's delivery log, newest first, optionally of one status. */
export async function listWebhookDeliveries(
  db: Executor,
  actor: Actor,
  endpointId: string,
  filter: { status?: WebhookDeliveryStatus },
  paging: Paging,
): Promise<Page<WebhookDeliveryView>> {
  const endpoint = await findEndpointForActor(db, actor, endpointId);
  const where = and(
    eq(webhookDeliveries.endpointId, endpoint.id),
    filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ delivery: webhookDeliveries, eventType: events.type })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(paging.pageSize)
      .offset(offsetOf(paging)),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return envelope(
    rows.map((r) => toWebhookDeliveryView({ ...r.delivery, eventType: r.eventType })),
    total?.n ?? 0,
    paging,
  );
}
