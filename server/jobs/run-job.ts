import type PgBoss from "pg-boss";
import { logger } from "@/server/observability/logger";
import { metrics } from "@/server/observability/metrics";
import { runInRequest } from "@/server/observability/request-context";

/**
 * A job handler with its log line and metric: it runs under the id of the request that enqueued it (or its own
 * job id), so every line it logs can be traced back.
 */
export function runJob<T>(queue: string, fn: (jobs: PgBoss.Job<T>[]) => Promise<void>) {
  return async (jobs: PgBoss.Job<T>[]): Promise<void> => {
    const first = jobs[0];
    const requestId = (first?.data as { requestId?: string } | undefined)?.requestId ?? first?.id ?? queue;
    await runInRequest({ requestId, operation: `job:${queue}` }, async () => {
      const started = performance.now();
      try {
        await fn(jobs);
        metrics.jobs.inc({ queue, outcome: "completed" });
        logger.debug({ queue, jobs: jobs.length, durationMs: Math.round(performance.now() - started) }, "job");
      } catch (error) {
        metrics.jobs.inc({ queue, outcome: "failed" });
        logger.error(
          {
            queue,
            jobs: jobs.length,
            durationMs: Math.round(performance.now() - started),
            err: error instanceof Error ? error.stack : String(error),
          },
          "job failed",
        );
        throw error;
      }
    });
  };
}
