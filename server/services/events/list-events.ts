import { and, asc, eq, inArray, like, sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows, type Db } from "@/db/client";
import { eventPurgeMarks, events } from "@/db/schema";
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
  badField(
    "after",
    "is not the id of an event of this account, or events after it were removed (events are kept 30 days): read again without after",
  );

export type ListEventsQuery = z.output<typeof listEventsQuery>;

export type EventPage = { items: EventView[]; next: string | null };

/** How long a read waits for transactions older than the account's newest events to end (see listEvents). */
const SETTLE_TRIES = 40;
const SETTLE_STEP_MS = 25;

/** A transaction running longer than this no longer holds the feed back (see listEvents). */
export const FEED_WAIT_LIMIT_SECONDS = 5;

/**
 * The feed's horizon: the oldest transaction still running that began less than FEED_WAIT_LIMIT_SECONDS ago (or,
 * with none, the next transaction id), and whether the account has committed events at or past it. The app's own
 * transactions that write events last milliseconds; one that runs longer elsewhere in the database (a report, a
 * migration, a forgotten session) is not waited for, so it cannot freeze every account's feed.
 */
const HORIZON = `
  with snap as (select pg_current_snapshot() as s),
  h as (
    select coalesce(
      (select min(x) from pg_snapshot_xip(snap.s) x
        where not exists (
          select 1 from pg_stat_activity a
          where a.backend_xid is not null and a.backend_xid::text = (x::text::numeric % 4294967296)::text
            and a.xact_start < clock_timestamp() - make_interval(secs => ${FEED_WAIT_LIMIT_SECONDS}))),
      pg_snapshot_xmax(snap.s)) as horizon
    from snap)
  select h.horizon::text as horizon,
    exists(select 1 from events e where e.account_id = $1 and e.tx_id >= h.horizon) as waiting
  from h`;

async function feedHorizon(db: Db, accountId: string): Promise<{ horizon: string; waiting: boolean }> {
  const [row] = await queryRows<{ horizon: string; waiting: boolean }>(db, HORIZON, [accountId]);
  return row!;
}

/**
 * The pull feed: the account's order events, oldest first, after a cursor. Only events of transactions that
 * ended before every (recent) transaction still running are shown, so an event that commits late can never
 * appear before a cursor a client already holds; it shows a moment later, after it. Such transactions last
 * milliseconds, so a read first waits (up to a second) until none holds back an event of the account: an
 * event is in the feed as soon as its change has been answered. A transaction running longer than
 * FEED_WAIT_LIMIT_SECONDS is not waited for. `next` is the id to pass as `after` for the following page when more
 * events are already there, else null. A cursor whose event the retention purge removed continues when it was
 * the account's newest removed event (the client had read everything before the purge); older, it is gone (400).
 */
export async function listEvents(db: Db, accountId: string, q: ListEventsQuery): Promise<EventPage> {
  let { horizon, waiting } = await feedHorizon(db, accountId);
  for (let i = 0; i < SETTLE_TRIES && waiting; i++) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
    ({ horizon, waiting } = await feedHorizon(db, accountId));
  }
  let cursor: { txId: string; seq: number } | undefined;
  if (q.after) {
    const [row] = await db
      .select({ txId: events.txId, seq: events.seq })
      .from(events)
      .where(and(eq(events.id, q.after), eq(events.accountId, accountId), like(events.type, "shipping_order.%")));
    const [purged] = row
      ? []
      : await db
          .select({ txId: eventPurgeMarks.txId, seq: eventPurgeMarks.seq })
          .from(eventPurgeMarks)
          .where(and(eq(eventPurgeMarks.accountId, accountId), eq(eventPurgeMarks.eventId, q.after)));
    cursor = row ?? purged;
    if (!cursor) throw unknownCursor();
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
        sql`${events.txId} < ${horizon}::xid8`,
      ),
    )
    .orderBy(asc(events.txId), asc(events.seq))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit).map(toEventView);
  return { items, next: rows.length > q.limit ? items.at(-1)!.id : null };
}
