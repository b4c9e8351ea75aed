import { createServer } from "node:http";
import { closeDb, getDb } from "@/db/client";
import { migrate } from "@/db/migrate";
import { env } from "@/server/env";
import { startWorker, workerOptionsFromEnv } from "@/server/jobs/worker";
import { refreshJobsWaiting, refreshPoolStats } from "@/server/observability/jobs-waiting";
import { logger } from "@/server/observability/logger";
import { metrics } from "@/server/observability/metrics";

// A dedicated worker (`npm run worker`): the same jobs the web processes run unless WORKER=off. Any number
// may run against one PostgreSQL database.
await migrate();
const db = await getDb();
const worker = await startWorker(db, workerOptionsFromEnv());
logger.info("worker: running (webhook deliveries, tracking, event clean-up)");
console.log("worker: running (webhook deliveries, tracking, event clean-up)");

// Its own metrics (a worker has no Next server): GET /metrics on METRICS_PORT, with the same bearer token.
const { METRICS_PORT, METRICS_HOST, METRICS_TOKEN } = env();
const metricsServer =
  METRICS_PORT === undefined
    ? null
    : createServer((req, res) => {
        const authorized = !METRICS_TOKEN || req.headers.authorization === `Bearer ${METRICS_TOKEN}`;
        if (req.url !== "/metrics" || !authorized) {
          res.writeHead(req.url === "/metrics" ? 401 : 404).end();
          return;
        }
        void Promise.all([refreshJobsWaiting(db).catch(() => {}), refreshPoolStats().catch(() => {})])
          .then(() => metrics.registry.metrics())
          .then((body) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(body));
      }).listen(METRICS_PORT, METRICS_HOST);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "worker: stopping (letting attempts in flight finish)");
    metricsServer?.close();
    void worker
      .stop()
      .then(() => closeDb())
      .then(() => process.exit(0));
  });
}
