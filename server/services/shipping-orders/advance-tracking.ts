import { and, desc, eq, inArray, isNull, lte, max, sql, type SQL } from "drizzle-orm";
import { openProfileSettings } from "@/server/secrets/profile-settings";
import { prepared, type Db, type Tx } from "@/db/client";
import { courierProfiles, events, shippingOrders, trackingEvents, type ShippingStatus } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { env } from "@/server/env";
import { recordEvents } from "../events/record-events";
import { orderEvent } from "./persist-orders";
import { toShippingOrderViews } from "./shipping-order-view";

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

export type AdvanceOptions = {
  now?: Date;
  /** Origin of `labelUrl` in the `status_changed` events; see `eventBaseUrl` when there is no request. */
  baseUrl?: string;
};

/**
 * Brings the tracking of an account's orders up to date: every order whose next courier step is due gets
 * its new events and status. Runs before orders are read, so lists, filters and details agree even between
 * two runs of the tracking worker; the due check is one index probe, and `SKIP LOCKED` lets concurrent
 * readers and workers share the work.
 */
export async function advanceTracking(db: Db, accountId: string, options: AdvanceOptions = {}): Promise<void> {
  const now = options.now ?? new Date();
  const dueInAccount = and(
    eq(shippingOrders.accountId, accountId),
    isNull(shippingOrders.deletedAt),
    lte(shippingOrders.trackingNextAt, now),
  );
  // An ISO string: a placeholder skips the column's encoder, and drizzle's postgres.js driver sends a Date untouched.
  const due = await anyDue(db).execute({ accountId, now: now.toISOString() });
  if (due.length === 0) return;
  await db.transaction((tx) => advanceLocked(tx, dueInAccount!, now, BATCH, options.baseUrl));
}

/**
 * The tracking worker's step: one bounded batch of due orders of any account, earliest first. Orders another
 * worker (or a reader) holds are skipped, so several workers run batches side by side. Returns how many
 * orders it advanced; fewer than `batchSize` means nothing more is due.
 */
export async function advanceDueTracking(
  db: Db,
  { now = new Date(), batchSize = BATCH, baseUrl }: AdvanceOptions & { batchSize?: number } = {},
): Promise<number> {
  return db.transaction((tx) =>
    advanceLocked(
      tx,
      and(isNull(shippingOrders.deletedAt), lte(shippingOrders.trackingNextAt, now))!,
      now,
      batchSize,
      baseUrl,
    ),
  );
}

async function advanceLocked(tx: Tx, where: SQL, now: Date, limit: number, baseUrl?: string): Promise<number> {
  const orders = await tx
    .select({
      id: shippingOrders.id,
      accountId: shippingOrders.accountId,
      courier: shippingOrders.courier,
      status: shippingOrders.status,
      createdAt: shippingOrders.createdAt,
      settings: courierProfiles.settings,
    })
    .from(shippingOrders)
    .innerJoin(courierProfiles, eq(courierProfiles.id, shippingOrders.courierProfileId))
    .where(where)
    .orderBy(shippingOrders.trackingNextAt)
    .limit(limit)
    .for("update", { of: shippingOrders, skipLocked: true });
  if (orders.length === 0) return 0;
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
  const moved = new Map<string, ShippingStatus>();
  for (const order of orders) {
    const courier = findCourier(order.courier);
    if (!courier) {
      // A courier no longer registered has nobody to ask: its orders leave the schedule, or, due first for ever,
      // they would fill every batch and stall every other order's tracking.
      await tx.update(shippingOrders).set({ trackingNextAt: null }).where(eq(shippingOrders.id, order.id));
      continue;
    }
    const last = latestBy.get(order.id);
    const fresh = courier
      .tracking({ createdAt: order.createdAt, shippingNumbers: [] }, openProfileSettings(order.settings), now)
      .filter((e) => !last || e.time > last);
    newEvents.push(...fresh.map((e) => ({ orderId: order.id, ...e })));
    const current = fresh.at(-1);
    if (current && current.status !== order.status) moved.set(order.id, order.status);
    await tx
      .update(shippingOrders)
      .set({
        ...(current ? { status: current.status, trackingUpdatedAt: current.time } : {}),
        trackingNextAt: courier.nextTrackingAt(
          { createdAt: order.createdAt },
          openProfileSettings(order.settings),
          now,
        ),
      })
      .where(eq(shippingOrders.id, order.id));
  }
  if (newEvents.length > 0) await tx.insert(trackingEvents).values(newEvents);
  if (moved.size > 0) await recordStatusChanges(tx, moved, baseUrl);
  return orders.length;
}

/** One `status_changed` event per order whose shipping status moved, in the transaction that moved it. */
async function recordStatusChanges(tx: Tx, previous: Map<string, ShippingStatus>, baseUrl?: string): Promise<void> {
  const ids = [...previous.keys()];
  const rows = await tx.select().from(shippingOrders).where(inArray(shippingOrders.id, ids));
  const origins = baseUrl ? null : await eventBaseUrls(tx, ids);
  const groups = new Map<string, { accountId: string; origin: string; rows: typeof rows }>();
  for (const row of rows) {
    const origin = baseUrl ?? origins?.get(row.id) ?? fallbackOrigin();
    const key = `${row.accountId} ${origin}`;
    const group = groups.get(key) ?? { accountId: row.accountId, origin, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  for (const { accountId, origin, rows: groupRows } of groups.values()) {
    const views = await toShippingOrderViews(tx, groupRows, origin);
    await recordEvents(
      tx,
      accountId,
      views.map((v) => orderEvent("shipping_order.status_changed", v, { previousStatus: previous.get(v.id)! })),
    );
  }
}

/**
 * With no request to take an origin from (the tracking worker), an order's links keep the origin its
 * earlier events were given, i.e. the one the partner created it through; PUBLIC_URL overrides both.
 */
async function eventBaseUrls(tx: Tx, orderIds: string[]): Promise<Map<string, string>> {
  const configured = env().PUBLIC_URL;
  if (configured) return new Map(orderIds.map((id) => [id, configured]));
  const rows = await tx
    .selectDistinctOn([events.orderId], { orderId: events.orderId, data: events.data })
    .from(events)
    .where(inArray(events.orderId, orderIds))
    .orderBy(events.orderId, desc(events.createdAt));
  const origins = new Map<string, string>();
  for (const row of rows) {
    const labelUrl = (row.data.shippingOrder as { labelUrl?: unknown } | undefined)?.labelUrl;
    if (row.orderId && typeof labelUrl === "string") origins.set(row.orderId, new URL(labelUrl).origin);
  }
  return origins;
}

const fallbackOrigin = () => `http://localhost:${process.env.PORT ?? "3000"}`;
