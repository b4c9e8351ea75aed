import client from "prom-client";
import { handle, queryRows, type Executor } from "@/db/client";
import { DELIVERY_QUEUE_PREFIX, QUEUES } from "@/server/queue/queues";
import { metrics } from "./metrics";

const holder = globalThis as unknown as { __sopJobsWaiting?: client.Gauge<"queue"> };
const jobsWaiting = (holder.__sopJobsWaiting ??= new client.Gauge({
  name: "sop_jobs_waiting",
  help: "Jobs queued and not yet started, by queue (read when scraped).",
  labelNames: ["queue"] as const,
  registers: [metrics.registry],
}));

const holderPool = globalThis as unknown as { __sopPool?: client.Gauge<"state"> };
const pool = (holderPool.__sopPool ??= new client.Gauge({
  name: "sop_db_pool_connections",
  help: "This process's database connections by state (idle, busy: running statements, reserved: in a transaction or a job's script, connecting, max).",
  labelNames: ["state"] as const,
  registers: [metrics.registry],
}));

/** Refreshes the pool gauge from postgres.js's pool (nothing for the embedded database). */
export async function refreshPoolStats(): Promise<void> {
  const stats = (await handle()).poolStats?.();
  if (!stats) return;
  for (const [state, n] of Object.entries(stats)) pool.set({ state }, n);
}

/**
 * Refreshes the waiting-jobs gauge: pg-boss's partial index on jobs not yet active answers this without reading
 * the finished jobs it keeps in the same table. Every endpoint's delivery queue counts under `webhook-delivery`
 * (one series per endpoint would grow without bound).
 */
export async function refreshJobsWaiting(db: Executor): Promise<void> {
  const rows = await queryRows<{ name: string; n: number }>(
    db,
    `select case when name like $1 || '%' then $2 else name end as name, count(*)::int as n
     from pgboss.job where state < 'active' group by 1`,
    [DELIVERY_QUEUE_PREFIX, QUEUES.webhookDelivery],
  );
  jobsWaiting.reset();
  for (const queue of Object.values(QUEUES)) jobsWaiting.set({ queue }, 0);
  for (const row of rows) jobsWaiting.set({ queue: row.name }, row.n);
}
