import type { Db } from "@/db/client";
import { queryRows, uuidArray } from "@/db/client";
import { DELIVERY_QUEUE_PREFIX, QUEUES } from "@/server/queue/queues";
import { enqueueDeliveries } from "../events/record-events";

export type SweepOptions = {
  /** How long past its schedule a delivery without a live job is left alone before the sweep re-queues it. */
  graceSeconds: number;
  /** The retry schedule (seconds), as deliver-webhook.ts follows it. */
  retrySchedule: readonly number[];
};

/** What the sweep writes as the outcome of an attempt whose worker never recorded one. */
export const UNKNOWN_OUTCOME = "the worker stopped during the attempt: its outcome is unknown";

/**
 * A delivery stays `pending` only while a job is going to make its next attempt, or while an attempt runs. This
 * finishes the two ways it could wait for ever, and returns how many deliveries it moved:
 *
 * - An attempt claimed whose lease ended (plus the grace) without an outcome: its worker died, or lost the database
 *   while recording. The attempt was made (or may have been), so it counts as failed (outcome unknown) and the next
 *   is scheduled per the retry schedule, or the delivery fails when the schedule is spent. Never an immediate
 *   re-POST: the token it carried is cleared, so a late outcome of that run is not recorded either.
 * - No attempt running, the next one overdue, and no live job to make it (pg-boss gave the job up after its own
 *   retries, or it was lost with a database restored from a backup): re-queued with the delivery's current attempt
 *   number, so a job that turns up after all finds its claim taken and does nothing.
 */
export async function sweepStuckDeliveries(db: Db, options: SweepOptions): Promise<number> {
  // Two transactions, so that either part failing (the overdue lookup reads pg-boss's job partitions and may run
  // into the statement timeout on a loaded database) never takes the other's work back with it: in one transaction,
  // a lookup that timed out at every sweep would roll back the finishing of a dead worker's attempts each time, and
  // they would stay unfinished for as long as it did.
  const finished = await finishUnfinishedAttempts(db, options);
  return finished + (await requeueOrphanedDeliveries(db, options));
}

/** Attempts claimed whose lease ended without an outcome: counted failed, the next scheduled (see above). */
export async function finishUnfinishedAttempts(db: Db, { graceSeconds, retrySchedule }: SweepOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const unfinished = await queryRows<{ id: string; attempts: number; scheduleStart: number; endpointId: string }>(
      tx,
      UNFINISHED,
      [graceSeconds],
    );
    const retries = new Map<number, { deliveryId: string; attempt: number; endpointId: string }[]>();
    const given: string[] = [];
    for (const d of unfinished) {
      const delay = retrySchedule[d.attempts - d.scheduleStart - 1];
      if (delay === undefined) given.push(d.id);
      else {
        const list = retries.get(delay) ?? [];
        list.push({ deliveryId: d.id, attempt: d.attempts, endpointId: d.endpointId });
        retries.set(delay, list);
      }
    }
    for (const [delay, jobs] of retries) {
      await queryRows(tx, FINISH_UNFINISHED, [
        uuidArray(jobs.map((j) => j.deliveryId)),
        "pending",
        delay,
        UNKNOWN_OUTCOME,
      ]);
      await enqueueDeliveries(tx, jobs, delay);
    }
    if (given.length > 0) await queryRows(tx, FINISH_UNFINISHED, [uuidArray(given), "failed", null, UNKNOWN_OUTCOME]);
    return unfinished.length;
  });
}

/** Overdue deliveries whose endpoint's queue holds no live job: re-queued (see above). */
export async function requeueOrphanedDeliveries(db: Db, { graceSeconds }: SweepOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const stuck = await queryRows<{ id: string; attempts: number; endpointId: string }>(tx, STUCK, [
      graceSeconds,
      QUEUES.webhookDelivery,
      DELIVERY_QUEUE_PREFIX,
    ]);
    await enqueueDeliveries(
      tx,
      stuck.map((d) => ({ deliveryId: d.id, attempt: d.attempts, endpointId: d.endpointId })),
    );
    return stuck.length;
  });
}

// Both read the partial index on pending deliveries' next attempt (a claimed attempt's is in the past). The lease
// already holds the claiming worker's margin; an attempt claimed by a version that wrote no lease ends, for the
// sweep, `graceSeconds` after it began.
const UNFINISHED = `
  select d.id, d.attempts, d.schedule_start as "scheduleStart", d.endpoint_id as "endpointId"
  from webhook_deliveries d
  where d.status = 'pending' and d.next_attempt_at < now() and d.job_id is not null
    and coalesce(d.lease_until, coalesce(d.last_attempt_at, d.next_attempt_at) + make_interval(secs => $1::int)) < now()
  order by d.next_attempt_at
  limit 500
  for update of d skip locked`;

const FINISH_UNFINISHED = `
  update webhook_deliveries set
    status = $2::webhook_delivery_status, job_id = null, lease_until = null, response_status = null,
    duration_ms = null, last_error = $4,
    next_attempt_at = case when $3::float8 is null then null else now() + make_interval(secs => $3::float8) end
  where id = any($1::uuid[])`;

// Overdue deliveries are found per endpoint, not one by one: the deliveries of an endpoint that hangs are due and
// wait in its queue by the thousand (its cap holds them back), and a lookup of each one's job in pg-boss's table
// (one partition per endpoint, no index on the job's data) ran into the statement timeout, while the 500 oldest it
// looked at were always those waiting ones. An endpoint whose queue holds no live job at all while it has overdue
// deliveries has lost their jobs (pg-boss gave them up after its retries: a worker that died after fetching is
// handled by pg-boss's own expiry, see server/queue/queues.ts). Its queue name is a parameter of the correlated lookup, so
// PostgreSQL prunes the partitions at run time and reads only that endpoint's. Jobs still on the legacy queue are
// moved by the pump within a poll: while any is live, the sweep waits.
// Both lookups are MATERIALIZED: inlined, the planner (rows=1 from stale statistics) rescanned `late` for every
// overdue delivery, 2,804 × 1.3 ms = 3.9 s over a few thousand overdue deliveries, and past the 30 s statement
// timeout on a loaded machine; computed once it takes 38 ms there.
export const STUCK = `
  with late as materialized (
    select distinct d.endpoint_id from webhook_deliveries d
    where d.status = 'pending' and d.job_id is null and d.next_attempt_at < now() - make_interval(secs => $1::int)),
  orphaned as materialized (
    select late.endpoint_id from late
    where not exists (select 1 from pgboss.job j where j.name = $3 || late.endpoint_id::text and j.state < 'completed')
      and not exists (select 1 from pgboss.job j where j.name = $2 and j.state < 'completed')),
  stuck as (
    select d.id from webhook_deliveries d
    join orphaned o on o.endpoint_id = d.endpoint_id
    where d.status = 'pending' and d.job_id is null and d.next_attempt_at < now() - make_interval(secs => $1::int)
    order by d.next_attempt_at
    limit 500
    for update of d skip locked)
  update webhook_deliveries w set next_attempt_at = now()
  from stuck where w.id = stuck.id
  returning w.id, w.attempts, w.endpoint_id as "endpointId"`;
