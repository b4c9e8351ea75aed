/**
 * Histories of records written straight into the tables at chosen instants (the triggers count them as the
 * product's own writes do), and the figures they should give, counted here in plain code: the oracle the
 * statistics tests compare `GET /statistics` with.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { refusedAttempts, shippingOrders, trackingEvents, validationResults } from "@/db/schema";
import { dayIn } from "@/server/services/statistics/query-statistics";
import type { Dimension, GroupBy, StatisticsItem } from "@/server/services/statistics/schemas";

export type Pair = readonly [referenceSource: string, sourceIdentifier: string];

export type OrderRecord = {
  kind: "order";
  at: Date;
  pair: Pair;
  profile: number;
  /** `sandbox` unless given (the column is the courier's id as the order was created with it). */
  courier?: string;
  cod?: { amount: number; currency: string };
  /** The index (in the history) of an earlier live order of the same pair that this one replaces. */
  replaces?: number;
};
export type DeleteRecord = { kind: "delete"; at: Date; order: number };
export type TrackingRecord = {
  kind: "tracking";
  at: Date;
  order: number;
  status: "DELIVERED" | "RETURNED" | "IN_TRANSIT";
};
export type RefusalRecord = { kind: "refused"; at: Date; pair: Pair; profile: number };
export type ValidationRecord = {
  kind: "validation";
  at: Date;
  pair: Pair;
  profile: number | null;
  status: "OK" | "WARNING" | "ERROR";
};
export type HistoryRecord = OrderRecord | DeleteRecord | TrackingRecord | RefusalRecord | ValidationRecord;

export type Target = { accountId: string; profileIds: string[] };

const RECIPIENT = {
  recipientName: "Jana Nováková",
  recipientStreet: "Dlouhá 12",
  recipientCity: "Praha",
  recipientZip: "110 00",
  recipientCountry: "CZ",
};

/**
 * Writes the history in its order, one statement per record, as the product would: a replacement retires its
 * predecessor before the new order is inserted (persistOrders does the same). Returns the orders' ids by index.
 */
export async function writeHistory(
  target: Target,
  history: HistoryRecord[],
  /** Only the records from..to (exclusive), with the ids of the orders written before. */
  range: { from?: number; to?: number; ids?: Map<number, string> } = {},
): Promise<Map<number, string>> {
  const db = await getDb();
  const ids = range.ids ?? new Map<number, string>();
  for (let index = range.from ?? 0; index < Math.min(range.to ?? history.length, history.length); index++) {
    const r = history[index]!;
    if (r.kind === "order") {
      const id = randomUUID();
      ids.set(index, id);
      if (r.replaces !== undefined) {
        await db
          .update(shippingOrders)
          .set({ deletedAt: r.at, replacedById: id, status: "CANCELLED" })
          .where(eq(shippingOrders.id, ids.get(r.replaces)!));
      }
      await db.insert(shippingOrders).values({
        id,
        accountId: target.accountId,
        courier: r.courier ?? "sandbox",
        courierProfileId: target.profileIds[r.profile]!,
        referenceNumber: `H-${index}`,
        referenceSource: r.pair[0],
        sourceIdentifier: r.pair[1],
        service: "STANDARD",
        codPrice: r.cod ? r.cod.amount.toFixed(2) : null,
        codCurrency: r.cod?.currency ?? null,
        createdAt: r.at,
        ...RECIPIENT,
      });
    } else if (r.kind === "delete") {
      await db
        .update(shippingOrders)
        .set({ deletedAt: r.at, status: "CANCELLED" })
        .where(eq(shippingOrders.id, ids.get(r.order)!));
    } else if (r.kind === "tracking") {
      await db
        .insert(trackingEvents)
        .values({ orderId: ids.get(r.order)!, time: r.at, status: r.status, description: r.status });
    } else if (r.kind === "refused") {
      await db.insert(refusedAttempts).values({
        accountId: target.accountId,
        courier: "sandbox",
        courierProfileId: target.profileIds[r.profile]!,
        referenceNumber: `R-${index}`,
        referenceSource: r.pair[0],
        sourceIdentifier: r.pair[1],
        code: "COURIER_REJECTED",
        message: "refused",
        request: {},
        createdAt: r.at,
      });
    } else {
      await db.insert(validationResults).values({
        accountId: target.accountId,
        operation: "validate",
        courier: "sandbox",
        courierProfileId: r.profile === null ? null : target.profileIds[r.profile]!,
        referenceNumber: `V-${index}`,
        referenceSource: r.pair[0],
        sourceIdentifier: r.pair[1],
        status: r.status,
        messages: [],
        requestBody: {},
        createdAt: r.at,
      });
    }
  }
  return ids;
}

export type Ask = {
  from: string;
  to: string;
  groupBy: GroupBy;
  by: Dimension[];
  referenceSource?: string;
  sourceIdentifier?: string;
  courierProfile?: number;
};

/** The first day of `day`'s period. */
export function periodOf(day: string, groupBy: GroupBy): string {
  if (groupBy === "day") return day;
  if (groupBy === "month") return `${day.slice(0, 8)}01`;
  const date = new Date(`${day}T00:00:00Z`);
  const back = (date.getUTCDay() + 6) % 7; // days since Monday
  return new Date(date.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/** What `GET /statistics` must answer for `history`, counted record by record. */
export function expectedItems(target: Target, timeZone: string, history: HistoryRecord[], ask: Ask): StatisticsItem[] {
  const items = new Map<string, StatisticsItem>();
  const add = (
    at: Date,
    pair: Pair,
    profile: number | null,
    change: (item: StatisticsItem) => void,
    courier = "sandbox",
  ) => {
    const day = dayIn(timeZone, at);
    if (day < ask.from || day > ask.to) return;
    if (ask.referenceSource !== undefined && pair[0] !== ask.referenceSource) return;
    if (ask.sourceIdentifier !== undefined && pair[1] !== ask.sourceIdentifier) return;
    if (ask.courierProfile !== undefined && profile !== ask.courierProfile) return;
    const key = {
      period: periodOf(day, ask.groupBy),
      referenceSource: ask.by.includes("sourcePair") ? pair[0] : null,
      sourceIdentifier: ask.by.includes("sourcePair") ? pair[1] : null,
      courier: ask.by.includes("courier") ? courier : null,
      courierProfile: ask.by.includes("courierProfile") && profile !== null ? target.profileIds[profile]! : null,
    };
    const id = JSON.stringify(key);
    let item = items.get(id);
    if (!item) {
      item = {
        ...key,
        created: 0,
        replaced: 0,
        cancelled: 0,
        refused: 0,
        delivered: 0,
        returned: 0,
        validations: { ok: 0, warning: 0, error: 0 },
        cod: [],
      };
      items.set(id, item);
    }
    change(item);
  };
  const orders = new Map<number, OrderRecord>();
  const finals = new Set<string>();
  // `cod` sums only the orders that still carry it: one replaced or deleted later in the history no longer counts.
  const removed = new Set(
    history.flatMap((r) =>
      r.kind === "delete" ? [r.order] : r.kind === "order" && r.replaces !== undefined ? [r.replaces] : [],
    ),
  );
  history.forEach((r, index) => {
    if (r.kind === "order") {
      orders.set(index, r);
      add(
        r.at,
        r.pair,
        r.profile,
        (i) => {
          i.created++;
          if (r.replaces !== undefined) i.replaced++;
          if (r.cod && !removed.has(index)) {
            const entry = i.cod.find((c) => c.currency === r.cod!.currency);
            if (entry) entry.amount = Math.round((entry.amount + r.cod.amount) * 100) / 100;
            else i.cod.push({ currency: r.cod.currency, amount: r.cod.amount });
          }
        },
        r.courier,
      );
      if (r.replaces !== undefined) {
        const old = orders.get(r.replaces)!;
        add(r.at, old.pair, old.profile, (i) => i.cancelled++, old.courier);
      }
    } else if (r.kind === "delete") {
      const o = orders.get(r.order)!;
      add(r.at, o.pair, o.profile, (i) => i.cancelled++, o.courier);
    } else if (r.kind === "tracking") {
      const o = orders.get(r.order)!;
      if (r.status === "IN_TRANSIT" || finals.has(`${r.order}:${r.status}`)) return;
      finals.add(`${r.order}:${r.status}`);
      add(r.at, o.pair, o.profile, (i) => (r.status === "DELIVERED" ? i.delivered++ : i.returned++), o.courier);
    } else if (r.kind === "refused") {
      add(r.at, r.pair, r.profile, (i) => i.refused++);
    } else {
      add(r.at, r.pair, r.profile, (i) => i.validations[r.status.toLowerCase() as "ok" | "warning" | "error"]++);
    }
  });
  const keyOf = (i: StatisticsItem) => [
    i.period,
    i.referenceSource ?? "",
    i.sourceIdentifier ?? "",
    i.courier ?? "",
    i.courierProfile ?? "",
  ];
  return [...items.values()]
    .map((i) => ({
      ...i,
      cod: i.cod.filter((c) => c.amount !== 0).sort((a, b) => a.currency.localeCompare(b.currency)),
    }))
    .sort((a, b) => {
      const [ka, kb] = [keyOf(a), keyOf(b)];
      for (let n = 0; n < ka.length; n++) if (ka[n] !== kb[n]) return ka[n]! < kb[n]! ? -1 : 1;
      return 0;
    });
}
