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
export const SEQUENCER_LOCK_CLASS = 27_100;

/** Events numbered per transaction: each batch is a short transaction of its own. */
export const SEQUENCE_BATCH_SIZE = 1000;

/** Batches a read's call runs at most, so a read stays short; a larger backlog is numbered by the next calls. */
const READ_MAX_BATCHES = 20;

/** Batches the clean-up runs per account at most: all of a backlog, but never for ever behind a busy writer. */
const ALL_MAX_BATCHES = 10_000;

/** How long a sequencer waits for a lock before giving up for this time. */
const LOCK_TIMEOUT = "1s";

const HAS_UNSEQUENCED = `
  select exists(select 1 from events where account_id = $1::uuid and position is null) as "pending"`;

const TAKE_LOCK = `select pg_advisory_xact_lock(${SEQUENCER_LOCK_CLASS}, hashtext($1::text))`;

/**
 * Numbers the account's oldest committed unsequenced events after a key, in the order of their transactions
 * and, within one, of their writing, with fresh values of the global sequence. The numbers are drawn once per
 * row and handed out in ascending order by rank, so the order does not depend on the order the executor
 * evaluates `nextval` (an array, not a join on rank: the planner, which cannot estimate a CTE, nested-looped
 * that join at 1,000 × 1,000 rows). `position is null` is checked again in the update itself: even a writer
 * that bypassed the lock could never renumber an event. Answers how many rows it took and the last key, where
 * the next batch starts: rows numbered by earlier batches stay in the partial index as dead entries until
 * vacuum, and batches that scanned them all again would make a large backlog quadratic.
 */
const NUMBER_BATCH = `
  with batch as (
    select id, tx_id, seq, row_number() over (order by tx_id, seq) as n
    from (select id, tx_id, seq from events
          where account_id = $1::uuid and position is null and (tx_id, seq) > ($3::xid8, $4::bigint)
          order by tx_id, seq limit $2::int) oldest),
  numbers as (
    select array_agg(p order by p) as drawn
    from (select nextval('event_feed_position') as p from batch) d),
  numbered as (
    update events e set position = numbers.drawn[batch.n]
    from batch, numbers
    where e.id = batch.id and e.position is null)
  select n::int as "taken", tx_id::text as "txId", seq::text as "seq" from batch order by n desc limit 1`;

type Batch = { taken: number; txId: string; seq: string };

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
  { batchSize = SEQUENCE_BATCH_SIZE, maxBatches = READ_MAX_BATCHES }: { batchSize?: number; maxBatches?: number } = {},
): Promise<boolean> {
  const [check] = await queryRows<{ pending: boolean }>(db, HAS_UNSEQUENCED, [accountId]);
  if (!check?.pending) return true;
  // Where the next batch starts; an event of a transaction that commits meanwhile with a smaller key is left to
  // the next call (correctness never depends on when an event is numbered).
  let after = { txId: "0", seq: "0" };
  for (let i = 0; i < maxBatches; i++) {
    let batch: Batch | undefined;
    try {
      batch = await db.transaction(
        async (tx) => {
          await queryRows(tx, `set local lock_timeout = '${LOCK_TIMEOUT}'`, []);
          // Its own statement, before the numbering: the numbering's snapshot must be taken after the lock is held.
          await queryRows(tx, TAKE_LOCK, [accountId]);
          const [row] = await queryRows<Batch>(tx, NUMBER_BATCH, [accountId, batchSize, after.txId, after.seq]);
          return row;
        },
        // Whatever the server's default: under REPEATABLE READ the lock statement would fix the snapshot before
        // the lock is granted, and the numbering would not see the previous sequencer's numbers.
        { isolationLevel: "read committed" },
      );
    } catch (error) {
      if (isLockTimeout(error)) return false;
      throw error;
    }
    if (!batch || batch.taken < batchSize) return true;
    after = { txId: batch.txId, seq: batch.seq };
  }
  return false;
}

/**
 * Numbers the committed unsequenced events of every account, however many (the worker's hourly clean-up runs
 * it): an account that never reads the feed keeps few unnumbered rows, and the purge may remove what it numbered.
 */
export async function sequenceAllEvents(db: Db): Promise<void> {
  const accounts = await queryRows<{ accountId: string }>(
    db,
    `select distinct account_id as "accountId" from events where position is null`,
    [],
  );
  for (const { accountId } of accounts) await sequenceEvents(db, accountId, { maxBatches: ALL_MAX_BATCHES });
}
