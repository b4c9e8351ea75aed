import type { Db } from "@/db/client";
import { queryRows } from "@/db/client";
import { QUEUES } from "@/server/jobs/queues";
import { enqueueDeliveries } from "../events/record-events";

/**
 * A delivery stays `pending` only while a job is going to make its next attempt. When none will (pg-boss gave
 * the job up after its own retries, or it was lost with a database restored from a backup), the delivery would
 * wait for ever: this re-queues every pending delivery whose next attempt is overdue by more than `graceSeconds`
 * and that no live job carries. The attempt number is the delivery's current one, so a job that turns up after
 * all finds its claim taken and does nothing; at most one POST per attempt still holds.
 */
export async function sweepStuckDeliveries(db: Db, { graceSeconds }: { graceSeconds: number }): Promise<number> {
  return db.transaction(async (tx) => {
    const stuck = await queryRows<{ id: string; attempts: number; endpointId: string }>(tx, SWEEP, [
      graceSeconds,
      QUEUES.webhookDelivery,
    ]);
    await enqueueDeliveries(
      tx,
      stuck.map((d) => ({ deliveryId: d.id, attempt: d.attempts, endpointId: d.endpointId })),
    );
    return stuck.length;
  });
}

// The partial index on pending deliveries' next attempt finds the overdue few; the live jobs of one queue are
// few too (pg-boss keeps finished ones in the same table, so the state filter comes first).
const SWEEP = `
  with stuck as (
    select d.id from webhook_deliveries d
    where d.status = 'pending' and d.next_attempt_at < now() - make_interval(secs => $1::int)
      and not exists (
        select 1 from pgboss.job j
        where j.name = $2 and j.state < 'completed' and j.data->>'deliveryId' = d.id::text)
    order by d.next_attempt_at
    limit 500
    for update of d skip locked)
  update webhook_deliveries w set next_attempt_at = now(), job_id = null
  from stuck where w.id = stuck.id
  returning w.id, w.attempts, w.endpoint_id as "endpointId"`;
