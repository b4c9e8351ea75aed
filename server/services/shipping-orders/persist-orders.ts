import { v7 as uuidv7 } from "uuid";
import { inArray, sql, type SQL } from "drizzle-orm";
import { queryRows, rowsOf, type Db, type Tx } from "@/db/client";
import { insertRows } from "@/db/insert-rows";
import { parcels, shippingOrders, trackingEvents, type ShippingOrderRow } from "@/db/schema";
import type { CourierAdapter, Shipment } from "@/server/couriers/adapter";
import { firstTracking } from "../couriers/tracking-schedule";
import { AppError } from "@/server/errors";
import { recordEvents, type EventDraft } from "../events/record-events";
import { enqueueJobs } from "@/server/queue/enqueue-jobs";
import { predecessorCancelJobs } from "./cancel-predecessors";
import type { OrderRequest } from "./order-request";
import {
  shapeShippingOrderViews,
  toShippingOrderViews,
  type ParcelView,
  type ShippingOrderView,
  type TrackingEventValues,
} from "./shipping-order-view";

export type AcceptedOrder = {
  order: OrderRequest;
  referenceSource: string;
  sourceIdentifier: string;
  service: string;
  shipment: Shipment;
};

export type Predecessor = {
  id: string;
  referenceNumber: string;
  courier: string;
  courierProfileId: string;
  shippingNumbers: string[];
  courierData: Record<string, unknown>;
  /** The `courier-cancel` job queued with the replacement (cancel-predecessors.ts), when a courier holds a shipment. */
  cancelJobId?: string | null;
};

/** An order the courier refused or did not answer: no order, but a `courier_rejected` event. */
export type RejectedOrder = {
  order: OrderRequest;
  referenceSource: string;
  sourceIdentifier: string;
  code: string;
  message: string;
  field?: string | null;
  /** The courier may have registered it: the event says so (`outcomeUnknown: true`). */
  outcomeUnknown?: boolean;
};

export type PersistContext = {
  accountId: string;
  apiKeyId: string | null;
  courier: CourierAdapter;
  courierProfileId: string;
  settings: Record<string, unknown>;
  preventDuplicateOrders: boolean;
  /** Origin of `labelUrl` in the orders the events carry. */
  baseUrl: string;
};

/** What the create answers from: the stored rows, without reading them back. */
export type Stored = { rows: ShippingOrderRow[]; parcels: ParcelView[]; events: TrackingEventValues[] };

type LiveOrder = {
  id: string;
  referenceNumber: string;
  referenceSource: string;
  sourceIdentifier: string;
  courier: string;
};

// The create path's statements as text, written once: drizzle would build them on every request (its query
// building was the largest JavaScript cost of a create, bench/results.md).

/** One transaction-scoped advisory lock per (account, reference), taken in one order so batches cannot deadlock. */
const LOCK_REFERENCES = `
  select pg_advisory_xact_lock(h) from (
    select distinct hashtextextended($1::text || ':' || r, 0) as h
    from unnest($2::text[]) as r
    order by h
  ) locks`;

/**
 * The live orders of these references. The account is an InitPlan parameter the planner cannot see: for an
 * account newer than the table's last ANALYZE (not in its most-common values) PostgreSQL estimates one row and
 * scans all of the account's live orders through any index that starts with account_id, filtering the
 * references. Hidden, the value is estimated as an average account, and both columns of the unique index are
 * used. (Bench, 1 M orders: 7,000 index entries read per create of a fresh account → 1.)
 */
const LIVE_ORDERS = `
  select id, reference_number as "referenceNumber", reference_source as "referenceSource",
         source_identifier as "sourceIdentifier", courier
  from shipping_orders
  where account_id = (select $1::uuid) and deleted_at is null and reference_number = any($2::text[])`;

/**
 * Stores accepted orders in one transaction: each successor and the removal of its predecessor (same
 * ReferenceNumber and source pair) commit together, or nothing does. A transaction-level advisory lock per
 * (account, ReferenceNumber) serialises concurrent creates of one reference, so exactly one stays live;
 * the partial unique index is the backstop. Their events commit with them: `created`, `cancelled` of each
 * predecessor, and `courier_rejected` of each order the courier refused.
 */
export async function persistOrders(
  db: Db,
  ctx: PersistContext,
  accepted: AcceptedOrder[],
  alsoInsert: SQL[] = [],
  rejected: RejectedOrder[] = [],
  /** Writes that must commit with the orders and their events (the refused attempts of the same request). */
  alsoWrite: (tx: Tx) => Promise<void> = async () => {},
): Promise<Stored & { views: ShippingOrderView[]; replaced: (string | null)[]; predecessors: Predecessor[] }> {
  const rejections = rejected.map((r) => rejectionEvent(ctx, r));
  if (accepted.length === 0) {
    await db.transaction(async (tx) => {
      await alsoWrite(tx);
      if (rejections.length > 0) await recordEvents(tx, ctx.accountId, rejections);
    });
    return { rows: [], parcels: [], events: [], views: [], replaced: [], predecessors: [] };
  }
  const refs = [...new Set(accepted.map((a) => a.order.ReferenceNumber))];
  // One array parameter, so the statements' text does not vary with the batch (they are named, db/client.ts).
  const refArray = `{${refs.map(pgArrayItem).join(",")}}`;
  return db.transaction(async (tx) => {
    await queryRows(tx, LOCK_REFERENCES, [ctx.accountId, refArray]);
    const live = await queryRows<LiveOrder>(tx, LIVE_ORDERS, [ctx.accountId, refArray]);
    if (ctx.preventDuplicateOrders) {
      const clashes = crossSourceClashes(live, incomingReferences(accepted));
      if (clashes.length > 0) throw duplicateOrdersConflict(clashes);
    }

    const pairKey = (ref: string, source: string, identifier: string) => JSON.stringify([ref, source, identifier]);
    const liveByPair = new Map(live.map((l) => [pairKey(l.referenceNumber, l.referenceSource, l.sourceIdentifier), l]));
    const now = new Date();
    const ids = accepted.map(() => uuidv7());
    const replaced = accepted.map(
      (a) => liveByPair.get(pairKey(a.order.ReferenceNumber, a.referenceSource, a.sourceIdentifier))?.id ?? null,
    );

    await alsoWrite(tx);
    const retired = await retire(tx, ids, replaced, live);
    const cancels = predecessorCancelJobs(retired.predecessors);
    await enqueueJobs(tx, cancels.jobs);
    const stored = await insertOrders(tx, ctx, accepted, ids, now, alsoInsert);
    // Shaped from what was just stored (the parcels as PostgreSQL rounded them), not read back.
    const parcelsInOrder = stored.parcels.toSorted((a, b) => a.position - b.position);
    const views = shapeShippingOrderViews(stored.rows, parcelsInOrder, stored.events, ctx.baseUrl);
    const retiredViews = await toShippingOrderViews(tx, retired.rows, ctx.baseUrl);
    await recordEvents(tx, ctx.accountId, [
      ...retiredViews.map((v) => orderEvent("shipping_order.cancelled", v, { reason: "replaced" })),
      ...views.map((v, i) => orderEvent("shipping_order.created", v, { replaced: replaced[i] ?? null })),
      ...rejections,
    ]);
    return { ...stored, views, replaced, predecessors: cancels.predecessors };
  });
}

/** An event about one order, carrying the order as the API returns it. */
export const orderEvent = (
  type: string,
  shippingOrder: ShippingOrderView,
  extra: Record<string, unknown>,
): EventDraft => ({
  type,
  referenceSource: shippingOrder.referenceSource,
  sourceIdentifier: shippingOrder.sourceIdentifier,
  orderId: shippingOrder.id,
  data: { shippingOrder, ...extra },
});

const rejectionEvent = (ctx: PersistContext, r: RejectedOrder): EventDraft => ({
  type: "shipping_order.courier_rejected",
  referenceSource: r.referenceSource,
  sourceIdentifier: r.sourceIdentifier,
  data: {
    referenceNumber: r.order.ReferenceNumber,
    externalReference: r.order.ExternalReference ?? null,
    code: r.code,
    message: r.message,
    courier: ctx.courier.capabilities.id,
    courierProfile: ctx.courierProfileId,
    ...(r.outcomeUnknown ? { outcomeUnknown: true } : {}),
  },
});

/** `a"b` → `"a\"b"`, for a text[] literal. */
const pgArrayItem = (s: string) => `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

type PairedReference = { referenceNumber: string; referenceSource: string; sourceIdentifier: string };

/** References that would be live under more than one source pair: what duplicate prevention refuses. */
export function crossSourceClashes(live: PairedReference[], incoming: PairedReference[]): string[] {
  const pairs = new Map<string, Set<string>>();
  for (const r of [...live, ...incoming]) {
    pairs.set(
      r.referenceNumber,
      (pairs.get(r.referenceNumber) ?? new Set()).add(JSON.stringify([r.referenceSource, r.sourceIdentifier])),
    );
  }
  return [...pairs].filter(([, set]) => set.size > 1).map(([ref]) => ref);
}

export const incomingReferences = (
  orders: { order: OrderRequest; referenceSource: string; sourceIdentifier: string }[],
): PairedReference[] =>
  orders.map((o) => ({
    referenceNumber: o.order.ReferenceNumber,
    referenceSource: o.referenceSource,
    sourceIdentifier: o.sourceIdentifier,
  }));

export const duplicateOrdersConflict = (refs: string[]) =>
  new AppError(
    "conflict",
    `ReferenceNumber ${refs.join(", ")} is already used by an order under a different source pair, and this API key prevents duplicate orders.`,
    {
      errors: refs.map((ref) => ({
        field: "ReferenceNumber",
        message: `${ref} is already used under a different source pair`,
      })),
    },
  );

async function retire(
  tx: Tx,
  ids: string[],
  replaced: (string | null)[],
  live: LiveOrder[],
): Promise<{ rows: ShippingOrderRow[]; predecessors: Predecessor[] }> {
  const successorOf = new Map<string, string>();
  replaced.forEach((old, i) => old && successorOf.set(old, ids[i]!));
  if (successorOf.size === 0) return { rows: [], predecessors: [] };
  const oldIds = [...successorOf.keys()];
  const rows = await tx
    .update(shippingOrders)
    .set({
      deletedAt: sql`now()`,
      status: "CANCELLED",
      trackingNextAt: null,
      replacedById: sql`(${sql.join(
        [
          sql`case ${shippingOrders.id}`,
          ...oldIds.map((o) => sql`when ${o}::uuid then ${successorOf.get(o)!}::uuid`),
          sql`end`,
        ],
        sql` `,
      )})`,
    })
    .where(inArray(shippingOrders.id, oldIds))
    .returning();
  const numbers = await tx
    .select({ orderId: parcels.orderId, position: parcels.position, shippingNumber: parcels.shippingNumber })
    .from(parcels)
    .where(inArray(parcels.orderId, oldIds));
  const predecessors = live
    .filter((l) => successorOf.has(l.id))
    .map((l) => {
      const row = rows.find((r) => r.id === l.id)!;
      return {
        id: l.id,
        referenceNumber: l.referenceNumber,
        courier: l.courier,
        courierProfileId: row.courierProfileId,
        courierData: row.courierData,
        shippingNumbers: numbers
          .filter((n) => n.orderId === l.id)
          .toSorted((a, b) => a.position - b.position)
          .map((n) => n.shippingNumber),
      };
    });
  return { rows, predecessors };
}

const ORDER_COLUMNS = [
  "id",
  "accountId",
  "apiKeyId",
  "courier",
  "courierProfileId",
  "referenceNumber",
  "externalReference",
  "referenceSource",
  "sourceIdentifier",
  "service",
  "status",
  "codPrice",
  "codCurrency",
  "variableSymbol",
  "insurancePrice",
  "note",
  "pickupPoint",
  "recipientName",
  "recipientCompany",
  "recipientStreet",
  "recipientCity",
  "recipientZip",
  "recipientCountry",
  "recipientEmail",
  "recipientPhone",
  "trackingUrl",
  "trackingUpdatedAt",
  "trackingNextAt",
  "courierData",
  "createdAt",
] as const;
const PARCEL_COLUMNS = [
  "orderId",
  "position",
  "weight",
  "length",
  "width",
  "height",
  "reference",
  "shippingNumber",
] as const;
const EVENT_COLUMNS = ["orderId", "time", "status", "description", "location"] as const;

/**
 * `alsoInsert` (what is written with the orders in their transaction: their validation results), then the
 * orders, their parcels and their first tracking events in one statement: one CTE per table, each a single
 * multi-row insert (db/insert-rows.ts), whatever the batch size. The order rows are known here
 * (nothing but defaults is added by the database), so only the parcels come back, as PostgreSQL stored them
 * (their numeric columns round what was sent).
 */
async function insertOrders(
  tx: Tx,
  ctx: PersistContext,
  accepted: AcceptedOrder[],
  ids: string[],
  now: Date,
  alsoInsert: SQL[],
): Promise<Stored> {
  // What every order starts with: the courier's first tracking step at `now` and when to ask it next.
  const initial = firstTracking(ctx.courier, ctx.settings, now);
  const rows: ShippingOrderRow[] = accepted.map((a, i) => {
    const o = a.order;
    return {
      id: ids[i]!,
      accountId: ctx.accountId,
      apiKeyId: ctx.apiKeyId,
      courier: ctx.courier.capabilities.id,
      courierProfileId: ctx.courierProfileId,
      referenceNumber: o.ReferenceNumber,
      externalReference: o.ExternalReference ?? null,
      referenceSource: a.referenceSource,
      sourceIdentifier: a.sourceIdentifier,
      service: a.service,
      status: "CREATED" as const,
      codPrice: o.CodPrice === undefined ? null : o.CodPrice.toFixed(2),
      codCurrency: o.CodPrice === undefined ? null : (o.CodCurrency ?? null),
      variableSymbol: o.VariableSymbol ?? null,
      insurancePrice: o.InsurancePrice === undefined ? null : o.InsurancePrice.toFixed(2),
      note: o.Note ?? null,
      pickupPoint: ctx.courier.capabilities.services.find((s) => s.code === a.service)?.requiresPickupPoint
        ? (o.PickupPoint ?? null)
        : null,
      recipientName: o.Recipient.Name,
      recipientCompany: o.Recipient.Company ?? null,
      recipientStreet: o.Recipient.Street,
      recipientCity: o.Recipient.City,
      recipientZip: o.Recipient.Zip,
      recipientCountry: o.Recipient.Country,
      recipientEmail: o.Recipient.Email ?? null,
      recipientPhone: o.Recipient.Phone ?? null,
      trackingUrl: a.shipment.trackingUrl,
      trackingUpdatedAt: now,
      trackingNextAt: initial.nextCheckAt,
      trackingFailures: 0,
      courierData: a.shipment.courierData,
      createdAt: now,
      deletedAt: null,
      replacedById: null,
    };
  });
  const parcelValues = accepted.flatMap((a, i) =>
    a.order.Parcels.map((p, position) => ({
      orderId: ids[i]!,
      position,
      weight: String(p.Weight),
      length: p.Length === undefined ? null : String(p.Length),
      width: p.Width === undefined ? null : String(p.Width),
      height: p.Height === undefined ? null : String(p.Height),
      reference: p.Reference ?? null,
      shippingNumber: a.shipment.shippingNumbers[position]!,
    })),
  );
  // Tracking events are numbered (bigserial) in this order, which is the order the view lists them in at equal times.
  const events: TrackingEventValues[] = accepted.flatMap((_, i) =>
    initial.events.map((e) => ({ orderId: ids[i]!, ...e })),
  );
  for (const insert of alsoInsert) await tx.execute(insert);
  const stored = rowsOf<ParcelView>(
    await tx.execute(sql`
      with inserted_orders as (${insertRows(shippingOrders, ORDER_COLUMNS, rows)}),
      inserted_parcels as (${insertRows(
        parcels,
        PARCEL_COLUMNS,
        parcelValues,
        sql.raw(
          `order_id as "orderId", position, weight::text as weight, length::text as length, width::text as width, height::text as height, reference, shipping_number as "shippingNumber"`,
        ),
      )}),
      inserted_events as (${insertRows(trackingEvents, EVENT_COLUMNS, events)})
      select * from inserted_parcels`),
  );
  return { rows, parcels: stored, events };
}
