import { queryRows, type Db } from "@/db/client";
import { sequenceAllEvents } from "./sequence-events";

/** The contract keeps events at least 30 days; older ones go, with their delivery log. */
export const EVENT_RETENTION_DAYS = 30;

/** Events removed per statement: each batch is its own short transaction (see purgeExpiredEvents). */
export const PURGE_BATCH_SIZE = 2000;

/**
 * Removes events past their retention (and, by cascade, their deliveries) in short batches, each its own
 * statement and transaction: none comes near the statement timeout however large the backlog, and nothing is
 * read back but a count. Events are numbered for the feed first (an account that never reads the feed has
 * none numbered), and only numbered events go: each batch moves the account's purge mark to the position of
 * the newest feed event it removed (see listEvents), which an unnumbered event has not got. Returns how many
 * events went.
 */
export async function purgeExpiredEvents(
  db: Db,
  now = new Date(),
  { batchSize = PURGE_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<number> {
  await sequenceAllEvents(db);
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  let removed = 0;
  for (;;) {
    const [batch] = await queryRows<{ n: number }>(db, PURGE_BATCH, [cutoff, batchSize]);
    removed += batch?.n ?? 0;
    if ((batch?.n ?? 0) < batchSize) return removed;
  }
}

const PURGE_BATCH = `
  with doomed as (
    select id from events
    where created_at < $1::timestamptz and position is not null
    order by created_at limit $2::int),
  gone as (
    delete from events e using doomed where e.id = doomed.id
    returning e.account_id, e.id, e.type, e.position),
  marks as (
    insert into event_purge_marks (account_id, event_id, position)
    select distinct on (account_id) account_id, id, position from gone
    where type like 'shipping_order.%'
    order by account_id, position desc
    on conflict (account_id) do update
      set event_id = excluded.event_id, position = excluded.position
      where event_purge_marks.position < excluded.position)
  select count(*)::int as n from gone`;
