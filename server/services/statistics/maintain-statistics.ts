import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { enqueueJobs } from "@/server/queue/enqueue-jobs";
import { QUEUES, statisticsRebuildJob } from "@/server/queue/queues";

/** Deltas folded into the daily rows per statement (each batch its own short transaction). */
export const COMPACT_BATCH_SIZE = 20_000;

const FIGURES = [
  "created",
  "replaced",
  "cancelled",
  "refused",
  "delivered",
  "returned",
  "validations_ok",
  "validations_warning",
  "validations_error",
  "cod",
];
const KEYS = "account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency";

/** The advisory lock class of an account's statistics (the two-key form: never shares a key with one-key locks). */
export const STATISTICS_LOCK_CLASS = 27_300;

/**
 * One batch: the oldest deltas are deleted and their sums added to the daily rows in the same statement, so a
 * reader (one statement, one snapshot, summing both tables) sees them in one table or the other, never both or
 * neither. SKIP LOCKED lets two workers compact side by side. Each delta's account is locked shared for the batch,
 * and the deltas of an account whose rebuild holds the lock (rebuildStatistics) are left for a later batch: a batch
 * never lands in the middle of a rebuild, and every other account's compaction goes on beside it.
 */
const COMPACT_BATCH = `
  with moved as (
    delete from statistics_deltas where id in (
      select id from statistics_deltas
      where pg_try_advisory_xact_lock_shared(${STATISTICS_LOCK_CLASS}, hashtext(account_id::text))
      order by id limit $1::int for update skip locked)
    returning *),
  summed as (
    insert into statistics_daily (${KEYS}, ${FIGURES.join(", ")})
    select ${KEYS}, ${FIGURES.map((f) => `sum(${f})`).join(", ")} from moved group by ${KEYS}
    on conflict on constraint statistics_daily_key do update set
      ${FIGURES.map((f) => `${f} = statistics_daily.${f} + excluded.${f}`).join(",\n      ")}
    returning 1)
  select (select count(*) from moved)::int as n`;

/** Folds the deltas the triggers appended into statistics_daily, batch by batch. Returns how many went. */
export async function compactStatistics(
  db: Db,
  { batchSize = COMPACT_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<number> {
  let moved = 0;
  for (;;) {
    const [batch] = await queryRows<{ n: number }>(db, COMPACT_BATCH, [batchSize]);
    moved += batch?.n ?? 0;
    if ((batch?.n ?? 0) < batchSize) return moved;
  }
}

/** A rebuild reads every record of the account: far longer than a request's statement timeout. */
const REBUILD_TIMEOUT = "15min";

/**
 * The first day (in the account's zone) whose validation results and refused attempts are all still kept, when
 * retention removed some: their figures of the days before it can only be kept as counted, not recounted.
 */
const KEPT_UNTIL = `
  select ((review_purged_until at time zone time_zone)::date + 1)::text as keep from accounts where id = $1::uuid`;

const REVIEW_FIGURES = ["refused", "validations_ok", "validations_warning", "validations_error"];
const OTHER_FIGURES = FIGURES.filter((f) => !REVIEW_FIGURES.includes(f));

/**
 * The rebuild of an account whose older validation results or refused attempts retention removed ($2: the first day
 * they are all kept): before that day the counted review figures stay as they were (their records are gone) and the
 * rest is recounted; from it on, everything is recounted. In the rebuild's transaction and snapshot, in this order.
 */
const REBUILD_KEEPING_REVIEWS = [
  // The account's deltas folded in first: the figures kept are all that was counted ($2 only types the parameter).
  `with moved as (delete from statistics_deltas where account_id = $1::uuid and $2::date is not null returning *)
   insert into statistics_daily (${KEYS}, ${FIGURES.join(", ")})
   select ${KEYS}, ${FIGURES.map((f) => `sum(${f})`).join(", ")} from moved group by ${KEYS}
   on conflict on constraint statistics_daily_key do update set
     ${FIGURES.map((f) => `${f} = statistics_daily.${f} + excluded.${f}`).join(", ")}`,
  `delete from statistics_daily where account_id = $1::uuid and day >= $2::date`,
  `update statistics_daily set ${OTHER_FIGURES.map((f) => `${f} = 0`).join(", ")}
   where account_id = $1::uuid and day < $2::date`,
  `insert into statistics_daily (${KEYS}, ${FIGURES.join(", ")})
   select ${KEYS}, ${FIGURES.map((f) => (REVIEW_FIGURES.includes(f) ? `case when day < $2::date then 0 else ${f} end` : f)).join(", ")}
   from statistics_from_records($1::uuid)
   on conflict on constraint statistics_daily_key do update set
     ${FIGURES.map((f) => `${f} = statistics_daily.${f} + excluded.${f}`).join(", ")}`,
  // Rows left with nothing to count (their orders' days moved): a question shows only what has something.
  `delete from statistics_daily where account_id = $1::uuid and day < $2::date and ${FIGURES.map((f) => `${f} = 0`).join(" and ")}`,
];

/** A statement that cannot serialize with a concurrent change (40001), or a compaction batch's row (23505, below). */
const RETRIED = new Set(["40001", "23505"]);

/**
 * Recounts one account's figures from its records (after its time zone changed, so every day moves), then
 * clears `statistics_rebuild_since`. REPEATABLE READ: the delete and the recount see one snapshot, so a change
 * committed meanwhile is counted once, by the delta its own transaction appended, which this delete cannot see.
 * The account's statistics lock comes first (exclusive; compaction takes it shared per account and skips an account
 * it cannot get), so only this account's figures wait for the rebuild, never another's, and two rebuilds of one
 * account take turns. The lock's statement takes the snapshot before the lock is granted, so a compaction batch
 * that held it then may have moved this account's deltas after the snapshot: this transaction then meets their
 * rows (40001) or a daily row the batch inserted (23505), and tries again with a new snapshot.
 * Returns false when the account no longer exists.
 */
export async function rebuildStatistics(db: Db, accountId: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(
        async (tx) => {
          // First (SET takes no snapshot): a rebuild of the same account may hold the lock for as long.
          await tx.execute(sql.raw(`set local statement_timeout = '${REBUILD_TIMEOUT}'`));
          await tx.execute(sql`select pg_advisory_xact_lock(${STATISTICS_LOCK_CLASS}, hashtext(${accountId}::text))`);
          const [account] = await queryRows<{ keep: string | null }>(tx, KEPT_UNTIL, [accountId]);
          if (!account?.keep) {
            await tx.execute(sql`delete from statistics_deltas where account_id = ${accountId}::uuid`);
            await tx.execute(sql`delete from statistics_daily where account_id = ${accountId}::uuid`);
            await tx.execute(
              sql`insert into statistics_daily select * from statistics_from_records(${accountId}::uuid)`,
            );
          } else {
            for (const statement of REBUILD_KEEPING_REVIEWS) await queryRows(tx, statement, [accountId, account.keep]);
          }
          const done = await queryRows<{ id: string }>(
            tx,
            `update accounts set statistics_rebuild_since = null where id = $1::uuid returning id`,
            [accountId],
          );
          return done.length > 0;
        },
        { isolationLevel: "repeatable read" },
      );
    } catch (error) {
      // A serialization failure (the account's row changed under the snapshot): the next try sees the change.
      const e = error as { code?: string; cause?: { code?: string } };
      if (attempt < 5 && RETRIED.has(e.code ?? e.cause?.code ?? "")) continue;
      throw error;
    }
  }
}

/** A rebuild asked for this long ago with no job waiting or running for it was lost. */
const LOST_REBUILD_AFTER = "1 minute";

/**
 * Queues the rebuild of every account that waits for one (`statistics_rebuild_since`) with no rebuild job waiting,
 * retrying or running: a job that failed its last retry, or one an older version sent without the account as its
 * singleton key (which the queue's `short` policy holds to one for all accounts). Returns how many were queued.
 */
export async function requeueLostRebuilds(db: Db): Promise<number> {
  const lost = await queryRows<{ id: string }>(
    db,
    `select a.id from accounts a
     where a.statistics_rebuild_since < now() - interval '${LOST_REBUILD_AFTER}'
       and not exists (
         select 1 from pgboss.job j
         where j.name = $1 and j.state in ('created', 'retry', 'active')
           and (j.singleton_key = a.id::text or j.data->>'accountId' = a.id::text))`,
    [QUEUES.statisticsRebuild],
  );
  await enqueueJobs(
    db,
    lost.map((a) => statisticsRebuildJob(a.id)),
  );
  return lost.length;
}
