import { eq, sql } from "drizzle-orm";
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
 */
export async function deleteShippingOrder(db: Db, accountId: string, id: string, baseUrl: string): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await findLiveOrder(tx, accountId, id, { lock: true });
    const numbers = await tx.select({ n: parcels.shippingNumber }).from(parcels).where(eq(parcels.orderId, order.id));
    const [profile] = await tx
      .select({ settings: courierProfiles.settings })
      .from(courierProfiles)
      .where(eq(courierProfiles.id, order.courierProfileId));
    const courier = findCourier(order.courier);
    if (courier) {
      const settings = profile?.settings ?? {};
      try {
        await courier.cancelShipment(
          numbers.map((r) => r.n),
          { db: tx, settings, signal: AbortSignal.timeout(courier.timeoutMs(settings)) },
        );
      } catch (error) {
        throw courierCannotCancel(courier.capabilities.name, error);
      }
    }
    const removed = await tx
      .update(shippingOrders)
      .set({ deletedAt: sql`now()`, status: "CANCELLED", trackingNextAt: null })
      .where(eq(shippingOrders.id, order.id))
      .returning();
    const [view] = await toShippingOrderViews(tx, removed, baseUrl);
    await recordEvents(tx, accountId, [orderEvent("shipping_order.cancelled", view!, { reason: "deleted" })]);
  });
}

export const courierCannotCancel = (courierName: string, cause?: unknown) =>
  new AppError("unavailable", `${courierName} could not cancel the shipment; the order is unchanged. Retry later.`, {
    cause,
  });
