import { and, asc, eq, inArray, like, sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "@/db/client";
import { events } from "@/db/schema";
import { badField } from "@/server/errors";
import { ORDER_EVENT_TYPES, orderEventType, type EventView } from "./event-types";
import { toEventView } from "./to-event-view";

export const EVENTS_ARRAY_PARAMS = ["types"] as const;

export const listEventsQuery = z.object({
  after: z
    .uuid({ error: "after must be the id of an event" })
    .optional()
    .describe("An event id: the events that follow it. Omit to start from the oldest event kept."),
  types: z
    .array(orderEventType, { error: `types must be among ${ORDER_EVENT_TYPES.join(", ")}` })
    .optional()
    .describe("Only these event types (repeated or comma-separated)."),
  referenceSource: z.string().min(1).optional().describe("Only events of orders with this ReferenceSource (exact)."),
  sourceIdentifier: z.string().min(1).optional().describe("Only events of orders with this SourceIdentifier (exact)."),
  limit: z
    .string()
    .regex(/^\d{1,9}$/, "limit must be a whole number from 1 to 100")
    .transform(Number)
    .pipe(z.number().min(1, "limit must be from 1 to 100").max(100, "limit must be from 1 to 100"))
    .default(50)
    .describe("1..100, default 50."),
});

export const unknownCursor = () =>
  badField("after", "is not the id of an event of this account (events are kept 30 days)");

export type ListEventsQuery = z.output<typeof listEventsQuery>;

export type EventPage = { items: EventView[]; next: string | null };

/** How long a read waits for transactions older than the account's newest events to end (see listEvents). */
const SETTLE_TRIES = 40;
const SETTLE_STEP_MS = 25;

/** Whether the account has committed events that older, still running transactions keep out of the feed. */
async function eventsBehindHorizon(db: Db, accountId: string): Promise<boolean> {
  const rows = rowsOf<{ waiting: boolean }>(
    await db.execute(sql`select exists(
      select 1 from ${events}
      where ${events.accountId} = ${accountId} and ${events.txId} >= pg_snapshot_xmin(pg_current_snapshot())
    ) as waiting`),
  );
  return rows[0]?.waiting ?? false;
}

/**
 * The pull feed: the account's order events, oldest first, after a cursor. Only events of transactions that
 * ended before every transaction still running are shown, so an event that commits late can never appear
 * before a cursor a client already holds; it shows a moment later, after it. Such transactions last
 * milliseconds, so a read first waits (up to a second) until none holds back an event of the account: an
 * event is in the feed as soon as its change has been answered. `next` is the id to pass as `after` for the
 * following page when more events are already there, else null.
 */
export async function listEvents(db: Db, accountId: string, q: ListEventsQuery): Promise<EventPage> {
  for (let i = 0; i < SETTLE_TRIES && (await eventsBehindHorizon(db, accountId)); i++) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
  }
  let cursor: { txId: string; seq: number } | undefined;
  if (q.after) {
    const [row] = await db
      .select({ txId: events.txId, seq: events.seq })
      .from(events)
      .where(and(eq(events.id, q.after), eq(events.accountId, accountId), like(events.type, "shipping_order.%")));
    if (!row) throw unknownCursor();
    cursor = row;
  }
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.accountId, accountId),
        q.types?.length ? inArray(events.type, q.types) : like(events.type, "shipping_order.%"),
        q.referenceSource === undefined ? undefined : eq(events.referenceSource, q.referenceSource),
        q.sourceIdentifier === undefined ? undefined : eq(events.sourceIdentifier, q.sourceIdentifier),
        cursor ? sql`(${events.txId}, ${events.seq}) > (${cursor.txId}::xid8, ${cursor.seq})` : undefined,
        sql`${events.txId} < pg_snapshot_xmin(pg_current_snapshot())`,
      ),
    )
    .orderBy(asc(events.txId), asc(events.seq))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit).map(toEventView);
  return { items, next: rows.length > q.limit ? items.at(-1)!.id : null };
}
