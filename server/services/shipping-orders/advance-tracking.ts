import { and, eq, inArray, isNull, lte, max, sql } from "drizzle-orm";
import { prepared, type Db } from "@/db/client";
import { courierProfiles, shippingOrders, trackingEvents } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";

const BATCH = 500;

/** Whether any order of the account has a tracking step due: built once, it runs before every list. */
const anyDue = (db: Db) =>
  prepared(db, "tracking-due", (d) =>
    d
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(
        and(
          eq(shippingOrders.accountId, sql.placeholder("accountId")),
          isNull(shippingOrders.deletedAt),
          lte(shippingOrders.trackingNextAt, sql.placeholder("now")),
        ),
      )
      .limit(1)
      .prepare("tracking_due"),
  );

/**
 * Brings the tracking of an account's orders up to date: every order whose next courier step is due gets
 * its new events and status. Runs before orders are read, so lists, filters and details agree; the due
 * check is one index probe, and `SKIP LOCKED` lets concurrent readers (other instances) share the work.
 */
export async function advanceTracking(db: Db, accountId: string, now = new Date()): Promise<void> {
  // An ISO string: a placeholder skips the column's encoder, and drizzle's postgres.js driver sends a Date untouched.
  const due = await anyDue(db).execute({ accountId, now: now.toISOString() });
  if (due.length === 0) return;
  await db.transaction(async (tx) => {
    const orders = await tx
      .select({
        id: shippingOrders.id,
        courier: shippingOrders.courier,
        createdAt: shippingOrders.createdAt,
        settings: courierProfiles.settings,
      })
      .from(shippingOrders)
      .innerJoin(courierProfiles, eq(courierProfiles.id, shippingOrders.courierProfileId))
      .where(
        and(
          eq(shippingOrders.accountId, accountId),
          isNull(shippingOrders.deletedAt),
          lte(shippingOrders.trackingNextAt, now),
        ),
      )
      .limit(BATCH)
      .for("update", { of: shippingOrders, skipLocked: true });
    if (orders.length === 0) return;
    const latest = await tx
      .select({ orderId: trackingEvents.orderId, time: max(trackingEvents.time) })
      .from(trackingEvents)
      .where(
        inArray(
          trackingEvents.orderId,
          orders.map((o) => o.id),
        ),
      )
      .groupBy(trackingEvents.orderId);
    const latestBy = new Map(latest.map((l) => [l.orderId, l.time]));
    const newEvents: (typeof trackingEvents.$inferInsert)[] = [];
    for (const order of orders) {
      const courier = findCourier(order.courier);
      if (!courier) continue;
      const last = latestBy.get(order.id);
      const events = courier
        .tracking({ createdAt: order.createdAt, shippingNumbers: [] }, order.settings, now)
        .filter((e) => !last || e.time > last);
      newEvents.push(...events.map((e) => ({ orderId: order.id, ...e })));
      const current = events.at(-1);
      await tx
        .update(shippingOrders)
        .set({
          ...(current ? { status: current.status, trackingUpdatedAt: current.time } : {}),
          trackingNextAt: courier.nextTrackingAt({ createdAt: order.createdAt }, order.settings, now),
        })
        .where(eq(shippingOrders.id, order.id));
    }
    if (newEvents.length > 0) await tx.insert(trackingEvents).values(newEvents);
  });
}
