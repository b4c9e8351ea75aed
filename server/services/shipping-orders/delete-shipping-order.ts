import { eq, sql } from "drizzle-orm";
import { openProfileSettings } from "@/server/secrets/profile-settings";
import type { Db } from "@/db/client";
import { courierProfiles, parcels, shippingOrders } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { recordEvents } from "../events/record-events";
import { findLiveOrder } from "./get-shipping-order";
import { orderEvent } from "./persist-orders";
import { toShippingOrderViews } from "./shipping-order-view";

/**
 * Cancels the shipment with the courier and removes the order (it then answers 404), with its `cancelled`
 * event. If the courier cannot cancel, nothing changes and the caller gets 503 to retry. `baseUrl` is the
 * origin of the links in the event's order.
 *
 * The courier is called before the transaction, never inside one: a slow courier must not hold a row lock
 * and a connection idle in transaction (they are cut after 60 s). The transaction then locks the order and
 * removes it only if it is still live; a delete that raced this one and won answers this one 404, like the
 * lock did before. Cancelling twice with the courier is harmless (couriers treat cancel as idempotent).
 */
export async function deleteShippingOrder(db: Db, accountId: string, id: string, baseUrl: string): Promise<void> {
  const order = await findLiveOrder(db, accountId, id);
  const courier = findCourier(order.courier);
  if (courier) {
    const numbers = await db.select({ n: parcels.shippingNumber }).from(parcels).where(eq(parcels.orderId, order.id));
    const [profile] = await db
      .select({ settings: courierProfiles.settings })
      .from(courierProfiles)
      .where(eq(courierProfiles.id, order.courierProfileId));
    const settings = openProfileSettings(profile?.settings ?? {});
    try {
      await courier.cancelShipment(
        numbers.map((r) => r.n),
        { db, settings, signal: AbortSignal.timeout(courier.timeoutMs(settings)) },
      );
    } catch (error) {
      throw courierCannotCancel(courier.capabilities.name, error);
    }
  }
  await db.transaction(async (tx) => {
    const live = await findLiveOrder(tx, accountId, id, { lock: true });
    const removed = await tx
      .update(shippingOrders)
      .set({ deletedAt: sql`now()`, status: "CANCELLED", trackingNextAt: null })
      .where(eq(shippingOrders.id, live.id))
      .returning();
    const [view] = await toShippingOrderViews(tx, removed, baseUrl);
    await recordEvents(tx, accountId, [orderEvent("shipping_order.cancelled", view!, { reason: "deleted" })]);
  });
}

export const courierCannotCancel = (courierName: string, cause?: unknown) =>
  new AppError("unavailable", `${courierName} could not cancel the shipment; the order is unchanged. Retry later.`, {
    cause,
  });
