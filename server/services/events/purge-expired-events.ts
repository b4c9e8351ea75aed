import { queryRows, type Db } from "@/db/client";

/** The contract keeps events at least 30 days; older ones go, with their delivery log. */
export const EVENT_RETENTION_DAYS = 30;

/** Events removed per statement: each batch is its own short transaction (see purgeExpiredEvents). */
export const PURGE_BATCH_SIZE = 2000;

/**
 * Removes events past their retention (and, by cascade, their deliveries) in short batches, each its own
 * statement and transaction: none comes near the statement timeout however large the backlog, none holds back
 * the transaction horizon the event feed waits on for more than a moment, and nothing is read back but a count.
 * Each batch also moves the account's purge mark to the newest feed event it removed (see listEvents). Returns
 * how many events went.
 */
export async function purgeExpiredEvents(
  db: Db,
  now = new Date(),
  { batchSize = PURGE_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<number> {
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
    select id from events where created_at < $1::timestamptz order by created_at limit $2::int),
  gone as (
    delete from events e using doomed where e.id = doomed.id
    returning e.account_id, e.id, e.type, e.tx_id, e.seq),
  marks as (
    insert into event_purge_marks (account_id, event_id, tx_id, seq)
    select distinct on (account_id) account_id, id, tx_id, seq from gone
    where type like 'shipping_order.%'
    order by account_id, tx_id desc, seq desc
    on conflict (account_id) do update
      set event_id = excluded.event_id, tx_id = excluded.tx_id, seq = excluded.seq
      where (event_purge_marks.tx_id, event_purge_marks.seq) < (excluded.tx_id, excluded.seq))
  select count(*)::int as n from gone`;
