import { and, asc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { eventPurgeMarks, events } from "@/db/schema";
import { badField } from "@/server/errors";
import { ORDER_EVENT_TYPES } from "@/lib/event-types";
import { orderEventType, type EventView } from "./event-types";
import { sequenceEvents } from "./sequence-events";
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

/**
 * The feed's own event types. The pattern is written into the statement, not sent as a parameter: a statement
 * matching a pattern parameter is planned per run (db/client.ts), and this one is the same on every read.
 */
const isOrderEvent = sql`${events.type} like 'shipping_order.%'`;

export type EventPage = { items: EventView[]; next: string | null };

/** The feed position an `after` cursor stands for: its event's, or the purge mark's when the purge removed it. */
async function cursorPosition(db: Db, accountId: string, after: string): Promise<number | null> {
  const [row] = await db
    .select({ position: events.position })
    .from(events)
    .where(and(eq(events.id, after), eq(events.accountId, accountId), isOrderEvent));
  if (row) return row.position;
  const [purged] = await db
    .select({ position: eventPurgeMarks.position })
    .from(eventPurgeMarks)
    .where(and(eq(eventPurgeMarks.accountId, accountId), eq(eventPurgeMarks.eventId, after)));
  if (!purged) throw unknownCursor();
  return purged.position;
}

/**
 * The pull feed: the account's order events in feed position order, after a cursor. Positions are given after
 * commit by the account's sequencer (sequence-events.ts, which explains why no event is ever skipped), which
 * each read runs first, so an event is in the feed as soon as its change has been answered. Nothing waits for
 * transactions still running, of any role or age: a read answers at once whatever else runs in the database.
 * `next` is the id to pass as `after` for the following page when more events are already there, else null.
 * Cursors are event ids, as they always were (the migration numbered the events of before in the order the feed
 * showed them). A cursor whose event the retention purge removed continues when it was the account's newest
 * removed event (the client had read everything before the purge); older, it is gone (400).
 */
export async function listEvents(db: Db, accountId: string, q: ListEventsQuery): Promise<EventPage> {
  const sequenced = await sequenceEvents(db, accountId);
  let after: number | undefined;
  if (q.after) {
    let position = await cursorPosition(db, accountId, q.after);
    // A committed event with no position yet: an id a webhook carried, of a transaction that committed after the
    // sequencer above looked (numbered now), or left unnumbered because another sequencer of the account held the
    // lock (not waited for twice: the read stays short). Until it is numbered nothing can follow it in the feed:
    // an empty page, and the client asks again with the same cursor.
    if (position === null && sequenced) {
      await sequenceEvents(db, accountId);
      position = await cursorPosition(db, accountId, q.after);
    }
    if (position === null) return { items: [], next: null };
    after = position;
  }
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.accountId, accountId),
        after === undefined ? isNotNull(events.position) : gt(events.position, after),
        q.types?.length ? inArray(events.type, q.types) : isOrderEvent,
        q.referenceSource === undefined ? undefined : eq(events.referenceSource, q.referenceSource),
        q.sourceIdentifier === undefined ? undefined : eq(events.sourceIdentifier, q.sourceIdentifier),
      ),
    )
    .orderBy(asc(events.position))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit).map(toEventView);
  return { items, next: rows.length > q.limit ? items.at(-1)!.id : null };
}
