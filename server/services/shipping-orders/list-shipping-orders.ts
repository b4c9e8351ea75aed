import { and, count, desc, eq, inArray, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import { z } from "zod";
import { prepared, uuidArray, type Db } from "@/db/client";
import { foldedRecipientName, parcels, shippingOrders, shippingStatus } from "@/db/schema";
import { RECIPIENT_SEARCH } from "@/lib/recipient-search";
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
  recipient: z
    .string()
    .trim()
    .min(RECIPIENT_SEARCH.min, `at least ${RECIPIENT_SEARCH.min} characters`)
    .max(RECIPIENT_SEARCH.max, `at most ${RECIPIENT_SEARCH.max} characters`)
    .optional()
    .describe("Part of the recipient's name, case and accents ignored."),
});

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

type Filter = Exclude<keyof ListShippingOrdersQuery, "page" | "pageSize">;

/** Each filter's condition, its value as one parameter (arrays as one array literal), in the order they are ANDed. */
const FILTERS: {
  [F in Filter]-?: {
    condition: (p: Placeholder) => SQL;
    value: (v: NonNullable<ListShippingOrdersQuery[F]>) => string;
  };
} = {
  createdFrom: {
    condition: (p) => sql`${shippingOrders.createdAt} >= ${p}::timestamptz`,
    value: (v) => bounds(v).start.toISOString(),
  },
  // `<=` the bound's last millisecond (the column's precision), not `<` the next instant: after 9999-12-31T23:59:59.999
  // comes the year 10000, which PostgreSQL does not accept as a parameter.
  createdTo: {
    condition: (p) => sql`${shippingOrders.createdAt} <= ${p}::timestamptz`,
    value: (v) => new Date(bounds(v).endExclusive.getTime() - 1).toISOString(),
  },
  referenceNumbers: {
    condition: (p) => sql`${shippingOrders.referenceNumber} = any(${p}::text[])`,
    value: textArray,
  },
  ids: { condition: (p) => sql`${shippingOrders.id} = any(${p}::uuid[])`, value: uuidArray },
  status: { condition: (p) => sql`${shippingOrders.status} = any(${p}::shipping_status[])`, value: textArray },
  courier: { condition: (p) => sql`${shippingOrders.courier} = any(${p}::text[])`, value: textArray },
  courierProfile: { condition: (p) => sql`${shippingOrders.courierProfileId} = any(${p}::uuid[])`, value: uuidArray },
  referenceSource: { condition: (p) => sql`${shippingOrders.referenceSource} = ${p}::text`, value: (v) => v },
  sourceIdentifier: { condition: (p) => sql`${shippingOrders.sourceIdentifier} = ${p}::text`, value: (v) => v },
  // Both sides folded by the same expression (the index's), the text's LIKE wildcards escaped: a substring match.
  recipient: {
    condition: (p) =>
      sql`${foldedRecipientName(shippingOrders.recipientName)} like ('%' || ${foldedRecipientName(sql`${p}::text`)} || '%')`,
    value: (v) => v.replace(/[\\%_]/g, (c) => `\\${c}`),
  },
  shippingNumbers: {
    condition: (p) =>
      sql`${shippingOrders.id} in (select ${parcels.orderId} from ${parcels} where ${parcels.shippingNumber} = any(${p}::text[]))`,
    value: textArray,
  },
};
const FILTER_NAMES = Object.keys(FILTERS) as Filter[];

/** `{"a","b\"c"}`: text values as one array parameter. */
function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

/**
 * The page and count statements of one combination of filters, built once per database handle: drizzle builds
 * nothing per request, and PostgreSQL parses each combination once per connection (its values are parameters).
 */
function statementsFor(db: Db, filters: Filter[]) {
  return prepared(db, `list-orders:${filters.join(",")}`, (d) => {
    const where = and(
      eq(shippingOrders.accountId, sql.placeholder("accountId")),
      isNull(shippingOrders.deletedAt),
      ...filters.map((f) => FILTERS[f].condition(sql.placeholder(f))),
    );
    const newestFirst = [desc(shippingOrders.createdAt), desc(shippingOrders.id)];
    // The page's ids first (an index-only scan, however deep the page), then only those rows: paging with
    // OFFSET over whole rows would read every skipped order from the heap.
    const pageIds = d
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(where)
      .orderBy(...newestFirst)
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"));
    return {
      page: d
        .select()
        .from(shippingOrders)
        .where(inArray(shippingOrders.id, pageIds))
        .orderBy(...newestFirst)
        .prepare("list_orders_page"),
      count: d.select({ n: count() }).from(shippingOrders).where(where).prepare("list_orders_count"),
    };
  });
}

export const reversedRange = () =>
  new AppError("bad_request", "createdFrom must not be after createdTo.", {
    errors: [{ field: "createdFrom", message: "after createdTo" }],
  });

/** The account's live orders, newest first, filtered and paged. */
export async function listShippingOrders(
  db: Db,
  accountId: string,
  q: ListShippingOrdersQuery,
  baseUrl: string,
): Promise<Page<ShippingOrderView>> {
  if (q.createdFrom && q.createdTo && bounds(q.createdFrom).start >= bounds(q.createdTo).endExclusive) {
    throw reversedRange();
  }
  await advanceTracking(db, accountId, { baseUrl });
  const filters = FILTER_NAMES.filter((f) => {
    const v = q[f];
    return v !== undefined && (!Array.isArray(v) || v.length > 0);
  });
  const values: Record<string, unknown> = { accountId };
  for (const f of filters) values[f] = (FILTERS[f].value as (v: unknown) => string)(q[f]);
  const { page, count: total } = statementsFor(db, filters);
  const [rows, [n]] = await Promise.all([
    page.execute({ ...values, limit: q.pageSize, offset: offsetOf(q) }),
    total.execute(values),
  ]);
  return envelope(await toShippingOrderViews(db, rows, baseUrl), n?.n ?? 0, q);
}
