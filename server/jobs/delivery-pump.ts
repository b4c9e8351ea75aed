import { eq } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { enqueueDeliveries } from "@/server/services/events/record-events";
import { deliverWebhook, type DeliveryOptions } from "@/server/services/webhooks/deliver-webhook";
import pLimit, { type LimitFunction } from "p-limit";
import { runInRequest } from "@/server/observability/request-context";
import { QUEUES, type DeliveryJob } from "./queues";
import { jobSql } from "./sql-adapter";

export type DeliveryPumpOptions = {
  delivery: DeliveryOptions;
  /** Attempts this process runs at once. */
  concurrency: number;
  /** Attempts in flight to one endpoint in this process; more wait (re-queued) without spending an attempt. */
  perEndpoint: number;
  pollingSeconds: number;
  log: (message: string, error?: unknown) => void;
};

/** An endpoint whose oldest attempt in flight has run this long is treated as slow. */
const SLOW_AFTER_MS = 1000;

/** The longest a slow endpoint's attempt is put off at once. */
const MAX_DEFER_SECONDS = 600;

export type DeliveryPump = { stop(timeoutMs: number): Promise<void> };

/**
 * Webhook attempts, each its own job: fetched only while a slot is free (so a job never waits in this process
 * while its expiry runs), completed or failed one by one (pg-boss's `work` fails a whole fetched batch when one
 * of it throws or outlives the expiry, and would retry attempts that were already made), and capped per endpoint,
 * so that a receiver that hangs for the whole timeout holds at most `perEndpoint` slots and every other endpoint
 * keeps its pace.
 */
export function startDeliveryPump(boss: PgBoss, db: Db, options: DeliveryPumpOptions): DeliveryPump {
  const running = new Map<string, Promise<void>>();
  /** Per endpoint: its limiter, and when each attempt in flight to it started. */
  const endpoints = new Map<string, { limit: LimitFunction; started: Set<number> }>();
  let stopped = false;
  let wake: (() => void) | null = null;
  const nudge = () => wake?.();

  const endpointOf = async (job: PgBoss.Job<DeliveryJob>): Promise<string | null> => {
    if (job.data.endpointId) return job.data.endpointId;
    const [row] = await db
      .select({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, job.data.deliveryId));
    return row?.endpointId ?? null;
  };

  /**
   * Hands the attempt back for later with the same claim (`attempt`), so no step of the schedule is spent. Each
   * time it comes back to an endpoint still slow it waits twice as long (from half the timeout up to 10 minutes),
   * so the backlog of a receiver that hangs for hours costs a few handovers per job, not one every few seconds.
   */
  const defer = async (job: PgBoss.Job<DeliveryJob>) => {
    const deferrals = (job.data.deferrals ?? 0) + 1;
    const first = Math.max(1, Math.ceil(options.delivery.timeoutMs / 2000));
    const later = Math.min(MAX_DEFER_SECONDS, first * 2 ** (deferrals - 1));
    await db.transaction(async (tx) => {
      await enqueueDeliveries(tx, [{ ...job.data, deferrals }], later);
      await boss.complete(QUEUES.webhookDelivery, job.id, { deferred: true }, { db: jobSql(tx) });
    });
  };

  const attempt = async (job: PgBoss.Job<DeliveryJob>) => {
    await deliverWebhook(db, job, options.delivery);
    await boss.complete(QUEUES.webhookDelivery, job.id);
  };

  const run = (job: PgBoss.Job<DeliveryJob>) =>
    runInRequest({ requestId: job.data.requestId ?? job.id, operation: "job:webhook-delivery" }, () =>
      attemptOrDefer(job),
    );

  const attemptOrDefer = async (job: PgBoss.Job<DeliveryJob>) => {
    try {
      const endpointId = await endpointOf(job);
      if (!endpointId) return await attempt(job);
      let state = endpoints.get(endpointId);
      if (!state) endpoints.set(endpointId, (state = { limit: pLimit(options.perEndpoint), started: new Set() }));
      const { limit, started } = state;
      // An endpoint whose attempts are all taken and the oldest of them running for a while holds them (a receiver
      // that hangs): the job goes back for later at once. Otherwise it waits for the endpoint's next free attempt,
      // but at most SLOW_AFTER_MS: a job still waiting then goes back too, so a slow endpoint never keeps this
      // process's slots, and a fast one (its attempts end in milliseconds) drains its backlog at full speed.
      const oldest = Math.min(...started);
      if (limit.activeCount >= options.perEndpoint && Date.now() - oldest > SLOW_AFTER_MS) return await defer(job);
      await new Promise<void>((resolve, reject) => {
        let begun = false;
        let givenBack = false;
        const watchdog = setTimeout(() => {
          if (begun) return;
          givenBack = true;
          defer(job).then(resolve, reject);
        }, SLOW_AFTER_MS);
        limit(async () => {
          if (givenBack) return;
          begun = true;
          clearTimeout(watchdog);
          const at = Date.now() + Math.random() / 1000;
          started.add(at);
          try {
            await attempt(job);
          } finally {
            started.delete(at);
            if (limit.activeCount <= 1 && limit.pendingCount === 0) endpoints.delete(endpointId);
          }
        }).then(
          () => !givenBack && resolve(),
          (error: unknown) => (givenBack ? undefined : reject(error)),
        );
      });
    } catch (error) {
      options.log(`delivery job ${job.id} failed`, error);
      // pg-boss retries this job (same id): the claim it holds lets the retry make the attempt it could not.
      await boss.fail(QUEUES.webhookDelivery, job.id, { message: String(error) }).catch(() => {});
    }
  };

  const loop = async () => {
    while (!stopped) {
      const free = options.concurrency - running.size;
      if (free <= 0) {
        await Promise.race(running.values());
        continue;
      }
      let jobs: PgBoss.Job<DeliveryJob>[] = [];
      try {
        jobs = await boss.fetch<DeliveryJob>(QUEUES.webhookDelivery, { batchSize: free });
      } catch (error) {
        options.log("fetching delivery jobs failed", error);
      }
      for (const job of jobs) {
        const task = run(job).finally(() => {
          running.delete(job.id);
          nudge();
        });
        running.set(job.id, task);
      }
      if (jobs.length === free) continue;
      // Idle (or part of the slots still free): wait for the polling interval, or less when an attempt ends.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.pollingSeconds * 1000);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
        if (stopped) done();
      });
    }
  };
  const looping = loop();

  return {
    async stop(timeoutMs) {
      stopped = true;
      nudge();
      await looping;
      const deadline = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), timeoutMs).unref());
      const all = Promise.all(running.values()).then(() => "done" as const);
      if ((await Promise.race([all, deadline])) === "late" && running.size > 0) {
        // Still running past the deadline: handed back as failed so pg-boss retries them on another worker.
        await Promise.all(
          [...running.keys()].map((id) =>
            boss.fail(QUEUES.webhookDelivery, id, { message: "worker stopped" }).catch(() => {}),
          ),
        );
      }
    },
  };
}
