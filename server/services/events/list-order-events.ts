import { and, desc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { events, shippingOrders, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { formatMillis } from "@/server/time";
import { accountAccess, type Actor } from "../authorization";
import { toWebhookDeliveryView, type WebhookDeliveryView } from "../webhooks/schemas";
import type { EventView } from "./event-types";
import { toEventView } from "./to-event-view";

export type OrderEventWithDeliveries = EventView & {
  deliveries: (WebhookDeliveryView & { endpointId: string; endpointUrl: string; lastAttempt: string | null })[];
};

/** The order page's history: the order's events, newest first, each with its deliveries to the account's endpoints. */
export async function listOrderEvents(
  db: Executor,
  actor: Actor,
  accountId: string,
  orderId: string,
): Promise<OrderEventWithDeliveries[]> {
  await accountAccess(db, actor, accountId);
  if (!isUuid(orderId)) throw notFound("Shipping order");
  const [order] = await db
    .select({ id: shippingOrders.id })
    .from(shippingOrders)
    .where(and(eq(shippingOrders.id, orderId), eq(shippingOrders.accountId, accountId)));
  if (!order) throw notFound("Shipping order");
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.orderId, orderId)))
    .orderBy(desc(events.createdAt), desc(events.seq))
    .limit(200);
  if (rows.length === 0) return [];
  const deliveries = await db
    .select({ delivery: webhookDeliveries, endpointUrl: webhookEndpoints.url })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      inArray(
        webhookDeliveries.eventId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(webhookDeliveries.createdAt);
  return rows.map((row) => ({
    ...toEventView(row),
    deliveries: deliveries
      .filter((d) => d.delivery.eventId === row.id)
      .map((d) => ({
        ...toWebhookDeliveryView({ ...d.delivery, eventType: row.type }),
        endpointId: d.delivery.endpointId,
        endpointUrl: d.endpointUrl,
        lastAttempt: d.delivery.lastAttemptAt ? formatMillis(d.delivery.lastAttemptAt) : null,
      })),
  }));
}
