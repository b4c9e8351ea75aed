import { and, count, desc, eq, gte, inArray, isNull, lte, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { parcels, shippingOrders, shippingStatus } from "@/db/schema";
import { courierIds } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { envelope, offsetOf, pagingQuery, type Page } from "../pagination";
import { advanceTracking } from "./advance-tracking";
import { toShippingOrderViews, type ShippingOrderView } from "./shipping-order-view";

const MAX_VALUES = 100;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?Z?$/;

/** A real calendar instant: `Date` would roll 2026-02-30 over to March and accept 24:00. */
function isCalendarDate(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(y!, mo! - 1, d!);
  return date.getUTCMonth() === mo! - 1 && date.getUTCDate() === d! && h! < 24 && mi! < 60 && s! < 60;
}

/** A UTC instant `yyyy-MM-ddTHH:mm:ss` (seconds, milliseconds and the time part optional). */
const dateTimeParam = z
  .string()
  .regex(DATE_TIME, "must be a UTC date-time yyyy-MM-ddTHH:mm:ss")
  .refine(isCalendarDate, "is not a valid date")
  // PostgreSQL has no year 0.
  .refine((v) => !v.startsWith("0000"), "is not a valid date")
  .describe("UTC, `yyyy-MM-ddTHH:mm:ss`; inclusive");

const listOf = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_VALUES, `at most ${MAX_VALUES} values`);

export const listShippingOrdersQuery = pagingQuery.extend({
  createdFrom: dateTimeParam.optional(),
  createdTo: dateTimeParam.optional(),
  referenceNumbers: listOf(z.string().max(64)).optional(),
  ids: listOf(z.uuid("must be UUIDs")).optional(),
  shippingNumbers: listOf(z.string().max(64)).optional(),
  status: listOf(
    z.enum(shippingStatus.enumValues, `must be one of ${shippingStatus.enumValues.join(", ")}`),
  ).optional(),
  courier: listOf(z.string().refine((c) => courierIds().includes(c), "is not a known courier id")).optional(),
  courierProfile: listOf(z.uuid("must be UUIDs")).optional(),
  referenceSource: z.string().max(64).optional().describe("Exact match (case included); usable alone."),
  sourceIdentifier: z.string().max(64).optional().describe("Exact match (case included); usable alone."),
});

/** Every query parameter of the list, for the route's declaration (anything else answers 400). */
export const LIST_PARAMS = Object.keys(listShippingOrdersQuery.shape);

export type ListShippingOrdersQuery = z.output<typeof listShippingOrdersQuery>;
export const LIST_ARRAY_PARAMS = [
  "referenceNumbers",
  "ids",
  "shippingNumbers",
  "status",
  "courier",
  "courierProfile",
] as const;

/** Start of the instant a bound names, and the end of it (exclusive) so `createdTo` is inclusive at its precision. */
function bounds(value: string): { start: Date; endExclusive: Date } {
  const m = DATE_TIME.exec(value)!;
  const [, y, mo, d, h, mi, s, ms] = m;
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0..99 as 1900..1999.
  const start = new Date(0);
  start.setUTCFullYear(+y!, +mo! - 1, +d!);
  start.setUTCHours(+(h ?? 0), +(mi ?? 0), +(s ?? 0), ms ? +ms.padEnd(3, "0") : 0);
  const step = ms ? 1 : s ? 1000 : mi ? 60_000 : 86_400_000;
  return { start, endExclusive: new Date(start.getTime() + step) };
}

function conditions(db: Db, accountId: string, q: ListShippingOrdersQuery): SQL[] {
  const c: SQL[] = [eq(shippingOrders.accountId, accountId), isNull(shippingOrders.deletedAt)];
  if (q.createdFrom) c.push(gte(shippingOrders.createdAt, bounds(q.createdFrom).start));
  // `<=` the bound's last millisecond (the column's precision), not `<` the next instant: after 9999-12-31T23:59:59.999
  // comes the year 10000, which PostgreSQL does not accept as a parameter.
  if (q.createdTo) c.push(lte(shippingOrders.createdAt, new Date(bounds(q.createdTo).endExclusive.getTime() - 1)));
  if (q.referenceNumbers?.length) c.push(inArray(shippingOrders.referenceNumber, q.referenceNumbers));
  if (q.ids?.length) c.push(inArray(shippingOrders.id, q.ids));
  if (q.status?.length) c.push(inArray(shippingOrders.status, q.status));
  if (q.courier?.length) c.push(inArray(shippingOrders.courier, q.courier));
  if (q.courierProfile?.length) c.push(inArray(shippingOrders.courierProfileId, q.courierProfile));
  if (q.referenceSource !== undefined) c.push(eq(shippingOrders.referenceSource, q.referenceSource));
  if (q.sourceIdentifier !== undefined) c.push(eq(shippingOrders.sourceIdentifier, q.sourceIdentifier));
  if (q.shippingNumbers?.length) {
    c.push(
      inArray(
        shippingOrders.id,
        db.select({ id: parcels.orderId }).from(parcels).where(inArray(parcels.shippingNumber, q.shippingNumbers)),
      ),
    );
  }
  return c;
}

/** The account's live orders, newest first, filtered and paged. */
export async function listShippingOrders(
  db: Db,
  accountId: string,
  q: ListShippingOrdersQuery,
  baseUrl: string,
): Promise<Page<ShippingOrderView>> {
  if (q.createdFrom && q.createdTo && bounds(q.createdFrom).start >= bounds(q.createdTo).endExclusive) {
    throw new AppError("bad_request", "createdFrom must not be after createdTo.", {
      errors: [{ field: "createdFrom", message: "after createdTo" }],
    });
  }
  await advanceTracking(db, accountId, { baseUrl });
  const where = and(...conditions(db, accountId, q));
  const newestFirst = [desc(shippingOrders.createdAt), desc(shippingOrders.id)];
  // The page's ids first (an index-only scan, however deep the page), then only those rows: paging with
  // OFFSET over whole rows would read every skipped order from the heap.
  const pageIds = db
    .select({ id: shippingOrders.id })
    .from(shippingOrders)
    .where(where)
    .orderBy(...newestFirst)
    .limit(q.pageSize)
    .offset(offsetOf(q));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(shippingOrders)
      .where(inArray(shippingOrders.id, pageIds))
      .orderBy(...newestFirst),
    db.select({ n: count() }).from(shippingOrders).where(where),
  ]);
  return envelope(await toShippingOrderViews(db, rows, baseUrl), total?.n ?? 0, q);
}
