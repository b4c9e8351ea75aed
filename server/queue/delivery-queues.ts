import PgBoss from "pg-boss";
import { queryRows, type Db, type Executor } from "@/db/client";
import { DELIVERY_QUEUE_PREFIX, deliveryQueue, deliveryQueueOptions } from "./queues";
import { jobSql } from "./sql-adapter";

/**
 * pg-boss over `executor` for queue administration only (never started: nothing polls). pg-boss's `createQueue`
 * and `deleteQueue` take no `db` option, so a transaction's statements need an instance of their own.
 */
const queueAdmin = (executor: Executor) =>
  new PgBoss({ db: jobSql(executor), supervise: false, schedule: false, migrate: false });

/**
 * Creates the endpoint's delivery queue (idempotent) through `executor`: in the transaction that inserts the
 * endpoint, so that no event can find the endpoint before its queue exists (a job for a missing queue is dropped).
 */
export async function createDeliveryQueue(executor: Executor, endpointId: string): Promise<void> {
  const name = deliveryQueue(endpointId);
  await queueAdmin(executor).createQueue(name, deliveryQueueOptions(name));
}

/**
 * Creates every endpoint's queue that is missing (endpoints made before queues were per endpoint, or by an older
 * version of the app during a rolling deploy). Run where pg-boss is prepared, when a worker starts and by the sweep.
 */
export async function ensureDeliveryQueues(executor: Executor): Promise<number> {
  const missing = await queryRows<{ id: string }>(
    executor,
    `select e.id from webhook_endpoints e
     where not exists (select 1 from pgboss.queue q where q.name = $1 || e.id::text)`,
    [DELIVERY_QUEUE_PREFIX],
  );
  for (const { id } of missing) await createDeliveryQueue(executor, id);
  return missing.length;
}

/**
 * Drops the delivery queues of endpoints that no longer exist (their jobs would find nothing to do). A queue is
 * a partition of pg-boss's job table, and dropping one locks the whole table (ACCESS EXCLUSIVE): not in the
 * endpoint's delete (it would queue every job statement behind the oldest transaction that sent a job), but here,
 * each under a short lock timeout, and left for the next sweep when the table is busy.
 */
export async function dropOrphanDeliveryQueues(db: Db): Promise<number> {
  const orphans = await queryRows<{ name: string }>(
    db,
    `select q.name from pgboss.queue q
     where q.name like $1 || '%'
       and not exists (select 1 from webhook_endpoints e where q.name = $1 || e.id::text)`,
    [DELIVERY_QUEUE_PREFIX],
  );
  let dropped = 0;
  for (const { name } of orphans) {
    try {
      await db.transaction(async (tx) => {
        await queryRows(tx, `select set_config('lock_timeout', '200ms', true)`, []);
        // pg-boss's delete_queue removes the queue's row before dropping its partition, and the partition's jobs
        // reference that row (ON DELETE RESTRICT, checked at once): its jobs, all for nothing now, go first.
        await queryRows(tx, `delete from pgboss.job where name = $1`, [name]);
        await queueAdmin(tx).deleteQueue(name);
      });
      dropped++;
    } catch {
      // Busy (lock timeout): the next sweep tries again.
    }
  }
  return dropped;
}
