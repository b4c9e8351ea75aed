import { queryRows, type Db } from "@/db/client";

/**
 * The pull feed's sequencer (the outbox pattern): events are written with no position, in the transaction of the
 * change they record, and are given their place in the feed only once that transaction has committed. Readers
 * page by position (listEvents), so how long a writing transaction ran no longer matters.
 *
 * Why a reader that has read up to position P never misses an event that gets a position later:
 * - The sequencers of one account are serialized by a transaction-scoped advisory lock, held until commit (and
 *   released only after the commit is visible: PostgreSQL releases a transaction's locks after it has left the
 *   ProcArray). The statement that numbers events runs after the lock is taken, so its snapshot sees every
 *   number the previous sequencer gave, and it draws its own numbers from the sequence after that one's.
 *   Every position given to an account is therefore greater than every position of the account that is
 *   already visible to anyone; a reader past P only ever finds later positions above P.
 * - A sequencer numbers only rows its snapshot sees, that is committed events: a transaction still running (of
 *   any role, of any age) is never waited for; its events are numbered by the first sequencer after it commits.
 *   Nothing here reads pg_stat_activity, so another role's session cannot freeze the feed either.
 * - `lock_timeout` bounds every wait (the account's lock, a row lock held by an account deletion), so a stuck
 *   sequencer cannot hang a read: the reader then reads what is numbered. Correctness never depends on a
 *   sequencer running, only freshness.
 * The lock is transaction-scoped, the setting `set local`, and there are no prepared statements of our own:
 * it works through PgBouncer in transaction mode.
 */

/** The advisory lock class of the feed's sequencer (the two-key form: never shares a key with one-key locks). */
const SEQUENCER_LOCK_CLASS = 27_100;

/** Events numbered per transaction: each batch is a short transaction of its own. */
export const SEQUENCE_BATCH_SIZE = 1000;

/** Batches one call runs at most; a larger backlog is numbered by the next calls (a read, the hourly purge). */
const MAX_BATCHES = 20;

/** How long a sequencer waits for a lock before giving up for this time. */
const LOCK_TIMEOUT = "1s";

const HAS_UNSEQUENCED = `
  select exists(select 1 from events where account_id = $1::uuid and position is null) as "pending"`;

const TAKE_LOCK = `select pg_advisory_xact_lock(${SEQUENCER_LOCK_CLASS}, hashtext($1::text))`;

/**
 * Numbers the account's oldest committed unsequenced events, in the order of their transactions and, within
 * one, of their writing, with fresh values of the global sequence. The numbers are drawn once per row and paired
 * with the rows by rank, so the order does not depend on the order the executor evaluates `nextval`.
 * `position is null` is checked again in the update itself: even a writer that bypassed the lock could never
 * renumber an event.
 */
const NUMBER_BATCH = `
  with batch as (
    select id, row_number() over (order by tx_id, seq) as n
    from (select id, tx_id, seq from events
          where account_id = $1::uuid and position is null
          order by tx_id, seq limit $2::int) oldest),
  numbers as (
    select p, row_number() over (order by p) as n
    from (select nextval('event_feed_position') as p from batch) drawn)
  update events e set position = numbers.p
  from batch join numbers using (n)
  where e.id = batch.id and e.position is null
  returning 1`;

/** SQLSTATE of a lock wait that ran past `lock_timeout`. */
const LOCK_NOT_AVAILABLE = "55P03";

function isLockTimeout(error: unknown): boolean {
  for (let e: unknown = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return true;
  }
  return false;
}

/**
 * Gives feed positions to the account's committed events that have none yet. Returns true when none is left
 * unnumbered (as far as this call could see), false when it gave up: another sequencer of the account held
 * the lock past the timeout, or the backlog was larger than one call numbers.
 */
export async function sequenceEvents(
  db: Db,
  accountId: string,
  { batchSize = SEQUENCE_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<boolean> {
  const [check] = await queryRows<{ pending: boolean }>(db, HAS_UNSEQUENCED, [accountId]);
  if (!check?.pending) return true;
  for (let i = 0; i < MAX_BATCHES; i++) {
    let numbered: number;
    try {
      numbered = await db.transaction(async (tx) => {
        await queryRows(tx, `set local lock_timeout = '${LOCK_TIMEOUT}'`, []);
        // Its own statement, before the numbering: the numbering's snapshot must be taken after the lock is held.
        await queryRows(tx, TAKE_LOCK, [accountId]);
        return (await queryRows(tx, NUMBER_BATCH, [accountId, batchSize])).length;
      });
    } catch (error) {
      if (isLockTimeout(error)) return false;
      throw error;
    }
    if (numbered < batchSize) return true;
  }
  return false;
}

/**
 * Numbers the committed unsequenced events of every account (the worker's hourly clean-up runs it): an
 * account that never reads the feed keeps few unnumbered rows, and the purge may remove what it numbered.
 */
export async function sequenceAllEvents(db: Db): Promise<void> {
  const accounts = await queryRows<{ accountId: string }>(
    db,
    `select distinct account_id as "accountId" from events where position is null`,
    [],
  );
  for (const { accountId } of accounts) await sequenceEvents(db, accountId);
}
