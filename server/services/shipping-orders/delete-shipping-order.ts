import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { courierProfiles, parcels, shippingOrders } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { findLiveOrder } from "./get-shipping-order";

/**
 * Cancels the shipment with the courier and removes the order (it then answers 404). If the courier cannot
 * cancel, nothing changes and the caller gets 503 to retry.
 */
export async function deleteShippingOrder(db: Db, accountId: string, id: string): Promise<void> {
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
        throw new AppError(
          "unavailable",
          `${courier.capabilities.name} could not cancel the shipment; the order is unchanged. Retry later.`,
          { cause: error },
        );
      }
    }
    await tx
      .update(shippingOrders)
      .set({ deletedAt: sql`now()`, status: "CANCELLED", trackingNextAt: null })
      .where(eq(shippingOrders.id, order.id));
  });
}
