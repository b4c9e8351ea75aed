import { and, eq, inArray, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import { prepared, rowsOf, type Db, type Tx } from "@/db/client";
import { courierProfiles, shippingOrders, trackingEvents } from "@/db/schema";
import type { ShippingStatus } from "@/lib/shipping-status";
import { mapLimit } from "@/server/concurrency";
import type { CourierAdapter, TrackingResult } from "@/server/couriers/adapter";
import { allCouriers, courierIds, findCourier } from "@/server/couriers/registry";
import { callCourier, courierSettings } from "../couriers/call-courier";
import { storedShipments } from "../couriers/stored-shipments";
import { nextPoll, retryPoll } from "../couriers/tracking-schedule";
import { env } from "@/server/env";
import { recordEvents } from "../events/record-events";
import { orderEvent } from "./persist-orders";
import { toShippingOrderViews } from "./shipping-order-view";

const BATCH = 500;

/** Couriers whose tracking is computed in the process (the sandbox): brought up to date before reads. */
const localCouriers = () =>
  allCouriers()
    .filter((c) => !c.remote)
    .map((c) => c.capabilities.id);

/** Whether any order of the account with a local courier has a tracking step due: built once, it runs before every list. */
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
          inArray(shippingOrders.courier, localCouriers()),
        ),
      )
      .limit(1)
      .prepare("tracking_due"),
  );

export type AdvanceOptions = {
  now?: Date;
  /** Origin of `labelUrl` in the `status_changed` events: PUBLIC_URL (the default), as every door passes it. */
  baseUrl?: string;
};

/**
 * Brings the tracking of an account's orders with a local courier (the sandbox, whose steps follow the clock) up
 * to date: runs before orders are read, so lists, filters and details agree even between two runs of the tracking
 * worker; the due check is one index probe, and `SKIP LOCKED` lets concurrent readers and workers share the work.
 * A remote courier is never called here: its orders move when the worker polls it (pollRemoteTracking).
 */
export async function advanceTracking(db: Db, accountId: string, options: AdvanceOptions = {}): Promise<void> {
  const now = options.now ?? new Date();
  const local = localCouriers();
  const dueInAccount = and(
    eq(shippingOrders.accountId, accountId),
    isNull(shippingOrders.deletedAt),
    lte(shippingOrders.trackingNextAt, now),
    inArray(shippingOrders.courier, local),
  );
  // An ISO string: a placeholder skips the column's encoder, and drizzle's postgres.js driver sends a Date untouched.
  const due = await anyDue(db).execute({ accountId, now: now.toISOString() });
  if (due.length === 0) return;
  await db.transaction((tx) => advanceLocked(tx, dueInAccount!, now, BATCH, options.baseUrl));
}

/**
 * The tracking worker's step for one courier: one bounded batch of its due orders of any account, earliest first.
 * A courier that is no longer registered has its orders leave the schedule. Returns how many orders it handled;
 * fewer than `batchSize` means nothing more of that courier is due.
 */
export async function advanceDueTracking(
  db: Db,
  {
    now = new Date(),
    batchSize = BATCH,
    baseUrl,
    courier: courierId,
  }: AdvanceOptions & { batchSize?: number; courier: string },
): Promise<number> {
  const courier = findCourier(courierId);
  if (!courier) return unscheduleUnregistered(db);
  if (courier.remote) return pollRemoteTracking(db, courier, { now, batchSize, baseUrl });
  const due = and(
    eq(shippingOrders.courier, courierId),
    isNull(shippingOrders.deletedAt),
    lte(shippingOrders.trackingNextAt, now),
  )!;
  return db.transaction((tx) => advanceLocked(tx, due, now, batchSize, baseUrl));
}

/**
 * A courier no longer registered has nobody to ask: its orders leave the schedule, or, due first for ever, they
 * would fill every batch and stall every other order's tracking.
 */
export async function unscheduleUnregistered(db: Db): Promise<number> {
  // The couriers that have scheduled orders, by a skip scan of the due index (a handful of probes, not a scan).
  const scheduled = rowsOf<{ courier: string }>(
    await db.execute(sql`
      with recursive c as (
        (select courier from shipping_orders where deleted_at is null and tracking_next_at is not null
         order by courier limit 1)
        union all
        select (select s.courier from shipping_orders s
                where s.deleted_at is null and s.tracking_next_at is not null and s.courier > c.courier
                order by s.courier limit 1)
        from c where c.courier is not null
      )
      select courier from c where courier is not null`),
  );
  const registered = new Set(courierIds());
  let handled = 0;
  for (const { courier } of scheduled.filter((c) => !registered.has(c.courier))) {
    const rows = await db
      .update(shippingOrders)
      .set({ trackingNextAt: null })
      .where(
        and(
          eq(shippingOrders.courier, courier),
          isNull(shippingOrders.deletedAt),
          isNotNull(shippingOrders.trackingNextAt),
        ),
      )
      .returning({ id: shippingOrders.id });
    handled += rows.length;
  }
  return handled;
}

/** A local courier's tracking, computed in the locking transaction (no network call: the sandbox follows the clock). */
async function advanceLocked(tx: Tx, where: SQL, now: Date, limit: number, baseUrl?: string): Promise<number> {
  const orders = await tx
    .select({
      id: shippingOrders.id,
      courier: shippingOrders.courier,
      status: shippingOrders.status,
      referenceNumber: shippingOrders.referenceNumber,
      courierData: shippingOrders.courierData,
      createdAt: shippingOrders.createdAt,
      trackingUpdatedAt: shippingOrders.trackingUpdatedAt,
      settings: courierProfiles.settings,
      profileId: courierProfiles.id,
      profileAccountId: courierProfiles.accountId,
    })
    .from(shippingOrders)
    .innerJoin(courierProfiles, eq(courierProfiles.id, shippingOrders.courierProfileId))
    .where(where)
    .orderBy(shippingOrders.trackingNextAt)
    .limit(limit)
    .for("update", { of: shippingOrders, skipLocked: true });
  if (orders.length === 0) return 0;
  const shipments = await storedShipments(tx, orders);
  const results: { order: (typeof orders)[number]; result: TrackingResult | null }[] = [];
  for (const order of orders) {
    const courier = findCourier(order.courier);
    if (!courier || courier.remote) {
      results.push({ order, result: null });
      continue;
    }
    const settings = courierSettings(courier, {
      id: order.profileId,
      accountId: order.profileAccountId,
      settings: order.settings,
    });
    const [result] = await courier.track([shipments.get(order.id)!], settings, {
      signal: new AbortController().signal,
      timeoutMs: courier.timeoutMs(settings),
      now: () => now,
      allocateNumbers: async () => [],
    });
    results.push({ order, result: result ?? { events: [], nextCheckAt: null } });
  }
  await applyTracking(tx, results, now, baseUrl);
  return orders.length;
}

type TrackedOrder = {
  id: string;
  status: ShippingStatus;
  createdAt: Date;
  trackingUpdatedAt: Date | null;
};

/**
 * Writes what the couriers answered: each order's new events (those after the newest one stored), its status
 * (the newest event's), when to poll next, and one `status_changed` event per order that moved. A null result is a
 * failed poll: asked again later, sooner at first. Orders deleted meanwhile are left alone.
 */
async function applyTracking(
  tx: Tx,
  results: { order: TrackedOrder; result: TrackingResult | null; failures?: number }[],
  now: Date,
  baseUrl?: string,
): Promise<void> {
  const ids = results.map((r) => r.order.id);
  // What is stored already, so an event the courier reports again is not written twice. Couriers write times to
  // the second (an event may even look older than the order), so events are matched whole, not by "newer than".
  const stored = await tx
    .select({
      orderId: trackingEvents.orderId,
      time: trackingEvents.time,
      status: trackingEvents.status,
      description: trackingEvents.description,
    })
    .from(trackingEvents)
    .where(inArray(trackingEvents.orderId, ids));
  const keyOf = (e: { time: Date; status: string; description: string }) =>
    `${e.time.getTime()}|${e.status}|${e.description}`;
  const seen = new Set(stored.map((e) => `${e.orderId}|${keyOf(e)}`));
  // An order is created once: its CREATED event is written when the courier registers it (firstTracking), so the
  // courier's own CREATED record (Packeta's "received data", PPL's `Order` phase) would be a second one.
  const created = new Set(stored.filter((e) => e.status === "CREATED").map((e) => e.orderId));
  const newEvents: (typeof trackingEvents.$inferInsert)[] = [];
  const moved = new Map<string, ShippingStatus>();
  const updates: {
    id: string;
    status: ShippingStatus | null;
    updated: string | null;
    failures: number;
    next: string | null;
  }[] = [];
  for (const { order, result, failures = 0 } of results) {
    if (!result) {
      updates.push({
        id: order.id,
        status: null,
        updated: null,
        failures: failures + 1,
        next: retryPoll(failures + 1, now).toISOString(),
      });
      continue;
    }
    const fresh = result.events
      .filter((e) => !seen.has(`${order.id}|${keyOf(e)}`) && !(e.status === "CREATED" && created.has(order.id)))
      .toSorted((a, b) => a.time.getTime() - b.time.getTime());
    newEvents.push(...fresh.map((e) => ({ orderId: order.id, ...e })));
    // Something new: the order takes the status of the courier's newest event (of all it reported).
    const current =
      fresh.length > 0 ? result.events.toSorted((a, b) => a.time.getTime() - b.time.getTime()).at(-1) : undefined;
    const status = current?.status ?? order.status;
    if (current && current.status !== order.status) moved.set(order.id, order.status);
    const lastChange = current ? now : (order.trackingUpdatedAt ?? order.createdAt);
    updates.push({
      id: order.id,
      status: current?.status ?? null,
      updated: current?.time.toISOString() ?? null,
      failures: 0,
      next: nextPoll(status, result, lastChange, now)?.toISOString() ?? null,
    });
  }
  // Every order's new state in one statement (a batch of 500 was 500 UPDATEs: bench/results.md §5e).
  if (updates.length > 0)
    await tx.execute(sql`
      update shipping_orders so set
        status = coalesce(v.status, so.status),
        tracking_updated_at = coalesce(v.updated, so.tracking_updated_at),
        tracking_failures = v.failures,
        tracking_next_at = v.next
      from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
        as v(id uuid, status shipping_status, updated timestamptz, failures int, next timestamptz)
      where so.id = v.id and so.deleted_at is null`);
  if (newEvents.length > 0) await tx.insert(trackingEvents).values(newEvents);
  if (moved.size > 0) await recordStatusChanges(tx, moved, baseUrl);
}

/** How long a claimed batch is the claiming worker's: past it (the worker died), another worker polls the orders. */
const CLAIM_MS = 5 * 60_000;

/**
 * A remote courier's tracking: claims a batch of its due orders (one short statement that moves their next poll a
 * lease ahead, so no other worker asks for them), asks the courier outside any transaction (per profile, in its
 * tracking batch size, at most its calls in flight), then writes the answers in one short transaction.
 */
async function pollRemoteTracking(
  db: Db,
  courier: CourierAdapter,
  { now, batchSize, baseUrl }: { now: Date; batchSize: number; baseUrl?: string },
): Promise<number> {
  const claimed = rowsOf<
    TrackedOrder & {
      referenceNumber: string;
      courierProfileId: string;
      courierData: Record<string, unknown>;
      trackingFailures: number;
    }
  >(
    await db.execute(sql`
      update shipping_orders so set tracking_next_at = ${new Date(now.getTime() + CLAIM_MS).toISOString()}::timestamptz
      where so.id in (
        select id from shipping_orders
        where courier = ${courier.capabilities.id} and deleted_at is null and tracking_next_at <= ${now.toISOString()}::timestamptz
        order by tracking_next_at limit ${batchSize} for update skip locked)
      returning so.id, so.status, so.created_at as "createdAt", so.tracking_updated_at as "trackingUpdatedAt",
        so.reference_number as "referenceNumber", so.courier_profile_id as "courierProfileId",
        so.courier_data as "courierData", so.tracking_failures as "trackingFailures"`),
  ).map((r) => ({
    ...r,
    createdAt: new Date(r.createdAt),
    trackingUpdatedAt: r.trackingUpdatedAt ? new Date(r.trackingUpdatedAt) : null,
  }));
  if (claimed.length === 0) return 0;
  const shipments = await storedShipments(db, claimed);
  const profiles = await db
    .select({ id: courierProfiles.id, accountId: courierProfiles.accountId, settings: courierProfiles.settings })
    .from(courierProfiles)
    .where(inArray(courierProfiles.id, [...new Set(claimed.map((o) => o.courierProfileId))]));
  const settingsOf = new Map(profiles.map((p) => [p.id, courierSettings(courier, p)]));

  const size = Math.max(1, courier.limits.trackingBatchSize);
  const chunks: { settings: Record<string, unknown>; orders: typeof claimed }[] = [];
  for (const [profileId, settings] of settingsOf) {
    const ofProfile = claimed.filter((o) => o.courierProfileId === profileId);
    for (let i = 0; i < ofProfile.length; i += size) chunks.push({ settings, orders: ofProfile.slice(i, i + size) });
  }
  const answered = await mapLimit(chunks, courier.limits.maxInFlightPerProfile, async ({ settings, orders }) => {
    try {
      const results = await callCourier(db, courier, "track", settings, (ctx) =>
        courier.track(
          orders.map((o) => shipments.get(o.id)!),
          settings,
          ctx,
        ),
      );
      return orders.map((order, i) => ({ order, result: results[i] ?? null, failures: order.trackingFailures }));
    } catch {
      // Logged and counted by callCourier; the orders are asked again later (retryPoll).
      return orders.map((order) => ({ order, result: null, failures: order.trackingFailures }));
    }
  });
  const results = answered.flat();
  // A profile that vanished (cannot happen while orders reference it) would leave its orders claimed until the lease ends.
  await db.transaction((tx) => applyTracking(tx, results, now, baseUrl));
  return claimed.length;
}

/** One `status_changed` event per order whose shipping status moved, in the transaction that moved it. */
async function recordStatusChanges(tx: Tx, previous: Map<string, ShippingStatus>, baseUrl?: string): Promise<void> {
  const ids = [...previous.keys()];
  const rows = await tx.select().from(shippingOrders).where(inArray(shippingOrders.id, ids));
  // PUBLIC_URL is the only origin of links: never one a request (or an earlier event of the order) carried.
  const origin = baseUrl ?? env().PUBLIC_URL;
  const groups = new Map<string, typeof rows>();
  for (const row of rows) groups.set(row.accountId, [...(groups.get(row.accountId) ?? []), row]);
  for (const [accountId, groupRows] of groups) {
    const views = await toShippingOrderViews(tx, groupRows, origin);
    await recordEvents(
      tx,
      accountId,
      views.map((v) => orderEvent("shipping_order.status_changed", v, { previousStatus: previous.get(v.id)! })),
    );
  }
}
