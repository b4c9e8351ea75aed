import { queryRows, type Db } from "@/db/client";
import { IDEMPOTENCY_TTL_HOURS } from "@/server/services/idempotency/idempotent-requests";

const HOUR_MS = 60 * 60 * 1000;

/** The contract keeps validation results and refused attempts 90 days. */
export const REVIEW_RETENTION_DAYS = 90;

/**
 * A rate-limit bucket untouched this long is full again (every limit refills within a minute), so removing it changes
 * nothing: the next request starts a full bucket, as it would have found it.
 */
export const IDLE_BUCKET_HOURS = 1;

/** Rows removed per statement: each batch is its own short transaction. */
export const RETENTION_BATCH_SIZE = 5000;

// Each statement removes one batch and answers how many rows went.
// Records the statistics count also move their account's `review_purged_until` (see rebuildStatistics).
const reviewBatch = (table: string) => `
    with doomed as (select id from ${table} where created_at < $1::timestamptz limit $2::int),
    removed as (delete from ${table} r using doomed where r.id = doomed.id returning r.account_id, r.created_at),
    marked as (
      update accounts a set review_purged_until = greatest(a.review_purged_until, m.newest)
      from (select account_id, max(created_at) as newest from removed group by account_id) m
      where a.id = m.account_id)
    select count(*)::int as n from removed`;

const BATCHES = {
  refusedAttempts: reviewBatch("refused_attempts"),
  validationResults: reviewBatch("validation_results"),
  idempotentAnswers: `
    with doomed as (select account_id, key from idempotency_keys where created_at < $1::timestamptz limit $2::int),
    removed as (
      delete from idempotency_keys k using doomed where k.account_id = doomed.account_id and k.key = doomed.key
      returning 1)
    select count(*)::int as n from removed`,
  idleBuckets: `
    with doomed as (select subject from rate_limit_buckets where updated_at < $1::timestamptz limit $2::int),
    removed as (delete from rate_limit_buckets b using doomed where b.subject = doomed.subject returning 1)
    select count(*)::int as n from removed`,
} as const;

export type PurgedRecords = Record<keyof typeof BATCHES, number>;

/**
 * Removes what the platform keeps for a time only (the contract's "Retention"): validation results and refused
 * attempts after 90 days, stored idempotent answers after 24 hours (a repeat after that runs again, as the contract
 * says), and rate-limit buckets nobody used for an hour. Batch by batch, each its own statement, so none comes near
 * the statement timeout however large the backlog. The daily statistics keep their counts (they are appended when a
 * record is written), and a rebuild keeps them too (`accounts.review_purged_until`). Returns how many rows went.
 */
export async function purgeExpiredRecords(
  db: Db,
  now = new Date(),
  { batchSize = RETENTION_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<PurgedRecords> {
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const cutoffs: Record<keyof typeof BATCHES, string> = {
    refusedAttempts: before(REVIEW_RETENTION_DAYS * 24 * HOUR_MS),
    validationResults: before(REVIEW_RETENTION_DAYS * 24 * HOUR_MS),
    idempotentAnswers: before(IDEMPOTENCY_TTL_HOURS * HOUR_MS),
    idleBuckets: before(IDLE_BUCKET_HOURS * HOUR_MS),
  };
  const purged = { refusedAttempts: 0, validationResults: 0, idempotentAnswers: 0, idleBuckets: 0 };
  for (const kind of Object.keys(BATCHES) as (keyof typeof BATCHES)[]) {
    for (;;) {
      const [batch] = await queryRows<{ n: number }>(db, BATCHES[kind], [cutoffs[kind], batchSize]);
      purged[kind] += batch?.n ?? 0;
      if ((batch?.n ?? 0) < batchSize) break;
    }
  }
  return purged;
}
