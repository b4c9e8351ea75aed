import { eq, sql } from "drizzle-orm";
import { CourierError } from "@/server/couriers/adapter";
import { callCourier } from "../couriers/call-courier";
import { profileSettings, storedShipment } from "../couriers/stored-shipments";
import type { Db } from "@/db/client";
import { shippingOrders } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { recordEvents } from "../events/record-events";
import { findLiveOrder } from "./get-shipping-order";
import { orderEvent } from "./persist-orders";
import { toShippingOrderViews } from "./shipping-order-view";

/**
 * Cancels the shipment with the courier and removes the order (it then answers 404), with its `cancelled`
 * event. A courier that no longer allows the cancel → 409 COURIER_CANNOT_CANCEL; one that cannot be reached or
 * does not answer → 503 to retry; either way nothing changes. `baseUrl` is the origin of the links in the event.
 *
 * The courier is called before the transaction, never inside one: a slow courier must not hold a row lock
 * and a connection idle in transaction (they are cut after 60 s). The transaction then locks the order and
 * removes it only if it is still live; a delete that raced this one and won answers this one 404, like the
 * lock did before. A retried DELETE (the courier cancelled, the commit lost) cancels again: each adapter answers a
 * cancel of a shipment the courier already cancelled as done, not as COURIER_CANNOT_CANCEL (PPL refuses it with a
 * 400 like any other refusal, so its adapter reads the shipment's phase; Packeta's reads the packet's status after a
 * CancelNotAllowedFault). The sandbox's cancel changes nothing at all.
 */
export async function deleteShippingOrder(db: Db, accountId: string, id: string, baseUrl: string): Promise<void> {
  const order = await findLiveOrder(db, accountId, id);
  const courier = findCourier(order.courier);
  if (courier) {
    const shipment = await storedShipment(db, order);
    const settings = (await profileSettings(db, courier, order.courierProfileId)) ?? {};
    try {
      await callCourier(db, courier, "cancel", settings, (ctx) => courier.cancelShipment(shipment, settings, ctx));
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

/** What a failed cancel answers: 409 COURIER_CANNOT_CANCEL when the courier refuses it, else 503 to retry. */
export const courierCannotCancel = (courierName: string, cause?: unknown) =>
  cause instanceof CourierError && cause.code === "COURIER_CANNOT_CANCEL"
    ? new AppError("conflict", `${courierName} no longer allows cancelling this shipment: ${cause.message}`, {
        cause,
        details: { problemCode: "COURIER_CANNOT_CANCEL" },
      })
    : new AppError(
        "unavailable",
        `${courierName} could not cancel the shipment; the order is unchanged. Retry later.`,
        { cause, details: { problemCode: cause instanceof CourierError ? cause.code : "COURIER_UNAVAILABLE" } },
      );
