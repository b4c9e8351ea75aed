import { closeDb, getDb } from "@/db/client";
import { migrate } from "@/server/migrate";
import { env } from "@/server/env";
import { startWithRetry } from "@/server/jobs/start-with-retry";
import { startWorker, workerOptionsFromEnv } from "@/server/jobs/worker";
import { refreshJobsWaiting, refreshPoolStats } from "@/server/observability/jobs-waiting";
import { logger } from "@/server/observability/logger";
import { createMetricsServer } from "@/server/observability/metrics-server";

// A dedicated worker (`npm run worker`): the same jobs the web processes run unless WORKER=off. Any number
// may run against one PostgreSQL database.
// A backend terminated during start-up (the migration's session, pg-boss's start) is retried, a few times, rather
// than ending the process with an uncaught CONNECTION_CLOSED (start-with-retry.ts).
const options = workerOptionsFromEnv();
const { db, worker } = await startWithRetry(
  "worker",
  async () => {
    await migrate();
    const db = await getDb();
    return { db, worker: await startWorker(db, options) };
  },
  { attempts: 10, delayMs: 2000, log: (message, error) => options.log(message, error) },
);
logger.info("worker: running (webhook deliveries, tracking, event clean-up)");
console.log("worker: running (webhook deliveries, tracking, event clean-up)");

// Its own metrics (a worker has no Next server): GET /metrics on METRICS_PORT, with the same bearer token; without
// METRICS_TOKEN it answers 404, as the web's /api/metrics does.
const { METRICS_PORT, METRICS_HOST, METRICS_TOKEN } = env();
if (METRICS_PORT !== undefined && !METRICS_TOKEN)
  logger.warn("worker: METRICS_PORT is set without METRICS_TOKEN; /metrics answers 404 until a token is set");
const metricsServer =
  METRICS_PORT === undefined
    ? null
    : createMetricsServer({
        token: METRICS_TOKEN,
        refresh: async () => {
          await Promise.all([refreshJobsWaiting(db).catch(() => {}), refreshPoolStats().catch(() => {})]);
        },
      }).listen(METRICS_PORT, METRICS_HOST);

// SIGTERM or SIGINT: stop taking jobs, let the webhook attempts in flight finish and record their outcome or hand
// them back (worker.ts, bounded by the webhook timeout), close the pool, exit 0 (1 if the stop failed). A signal
// repeated a moment later (Ctrl-C reaches a whole process group, and npm passes it on too) is the same request; one
// after that ends the process at once.
let stopAskedAt: number | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopAskedAt !== null) {
      if (Date.now() - stopAskedAt < 1000) return;
      logger.warn({ signal }, "worker: asked again, exiting now");
      process.exit(1);
    }
    stopAskedAt = Date.now();
    logger.info({ signal }, "worker: stopping (letting attempts in flight finish)");
    metricsServer?.close();
    void worker
      .stop()
      .then(
        () => 0,
        (error: unknown) => {
          logger.error({ err: error }, "worker: did not stop cleanly");
          return 1;
        },
      )
      .then(async (code) => {
        await closeDb().catch(() => {});
        process.exit(code);
      });
  });
}
