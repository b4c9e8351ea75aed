import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { courierIds } from "@/server/couriers/registry";
import { recoverAttempts } from "@/server/services/couriers/recover-attempts";
import { cancelPredecessor, type CourierCancelJob } from "@/server/services/shipping-orders/cancel-predecessors";
import PgBoss from "pg-boss";
import { logger } from "@/server/observability/logger";
import type { Db } from "@/db/client";
import { shippingOrders } from "@/db/schema";
import { env } from "@/server/env";
import { purgeExpiredEvents } from "@/server/services/events/purge-expired-events";
import { purgeExpiredRecords } from "@/server/services/retention/purge-expired-records";
import { advanceDueTracking, unscheduleUnregistered } from "@/server/services/shipping-orders/advance-tracking";
import { attemptLeaseMs, type DeliveryOptions } from "@/server/services/webhooks/deliver-webhook";
import {
  compactStatistics,
  rebuildStatistics,
  requeueLostRebuilds,
} from "@/server/services/statistics/maintain-statistics";
import { sweepStuckDeliveries } from "@/server/services/webhooks/sweep-stuck-deliveries";
import { dropOrphanDeliveryQueues, ensureDeliveryQueues } from "@/server/queue/delivery-queues";
import { startDeliveryPump, type DeliveryPump } from "./delivery-pump";
import { startPickupPointJobs } from "./pickup-point-jobs";
import { createQueues, QUEUES, trackingQueue } from "@/server/queue/queues";
import { runJob } from "./run-job";
import { jobSql } from "@/server/queue/sql-adapter";
import { describeError } from "@/server/http/problem";

export type WorkerOptions = {
  delivery: DeliveryOptions;
  pollingSeconds: number;
  maintenanceSeconds: number;
  /** Webhook attempts this process runs at once, at most per account and per endpoint (see delivery-pump.ts). */
  deliveryConcurrency: number;
  deliveryPerAccount: number;
  deliveryPerEndpoint: number;
  trackingBatchSize: number;
  log: (message: string, error?: unknown) => void;
};

export type RunningWorker = { boss: PgBoss; pump: DeliveryPump; stop: () => Promise<void> };

export function workerOptionsFromEnv(): WorkerOptions {
  const e = env();
  return {
    delivery: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
    },
    pollingSeconds: e.WORKER_POLLING_SECONDS,
    maintenanceSeconds: e.WORKER_MAINTENANCE_SECONDS,
    deliveryConcurrency: e.WEBHOOK_CONCURRENCY,
    deliveryPerAccount: e.WEBHOOK_ACCOUNT_CONCURRENCY,
    deliveryPerEndpoint: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    trackingBatchSize: 500,
    log: (message, error) => logger.error({ err: error === undefined ? undefined : describeError(error) }, message),
  };
}

/** How long one statistics-compact job keeps compacting, and how often (see the job below). */
const COMPACT_FOR_MS = 50_000;
const COMPACT_EVERY_MS = 5_000;

/** At most this many tracking batches are queued per tick; a bigger backlog is left to the next minute. */
const MAX_TRACKING_BATCHES_PER_TICK = 20;

/**
 * Runs the background jobs on pg-boss: webhook deliveries, the tracking tick (every minute) that splits due
 * orders into batch jobs any worker can take, and the hourly clean-up (events, validation results, refused attempts,
 * stored idempotent answers and idle rate-limit buckets past their retention). Any number of these may run
 * against one database; pg-boss hands each job to one of them at a time (SKIP LOCKED) and the cron schedule
 * is kept once in the database.
 */
export async function startWorker(db: Db, options: WorkerOptions): Promise<RunningWorker> {
  // A start that fails part-way (its backend terminated after pg-boss started) stops what it started: its caller
  // retries (web-process.ts, start-with-retry.ts), and a pg-boss left running would poll and supervise beside the
  // next one.
  const started: Started = {};
  try {
    return await start(db, options, started);
  } catch (error) {
    await started.pump?.stop(0).catch(() => {});
    await started.boss?.stop({ graceful: false, wait: true, close: false, timeout: 1000 }).catch(() => {});
    throw error;
  }
}

type Started = { boss?: PgBoss; pump?: DeliveryPump };

async function start(db: Db, options: WorkerOptions, started: Started): Promise<RunningWorker> {
  let stopping = false;
  let wake = () => {};
  const boss = new PgBoss({
    db: jobSql(db),
    migrate: true,
    supervise: true,
    schedule: true,
    maintenanceIntervalSeconds: options.maintenanceSeconds,
  });
  boss.on("error", (error: unknown) => options.log("pg-boss error", error));
  started.boss = boss;
  await boss.start();
  await createQueues(boss);
  await ensureDeliveryQueues(db);
  await boss.schedule(QUEUES.trackingTick, "* * * * *");
  await boss.schedule(QUEUES.eventsCleanup, "17 * * * *");

  await boss.schedule(QUEUES.webhookSweep, "* * * * *");
  await boss.schedule(QUEUES.courierRecovery, "* * * * *");
  await boss.schedule(QUEUES.statisticsCompact, "* * * * *");

  const polling = { pollingIntervalSeconds: options.pollingSeconds };
  const pump = startDeliveryPump(boss, db, {
    delivery: options.delivery,
    concurrency: options.deliveryConcurrency,
    perAccount: options.deliveryPerAccount,
    perEndpoint: options.deliveryPerEndpoint,
    pollingSeconds: options.pollingSeconds,
    log: options.log,
  });
  started.pump = pump;
  await boss.work(
    QUEUES.trackingTick,
    polling,
    runJob(QUEUES.trackingTick, async () => {
      const now = new Date();
      await unscheduleUnregistered(db);
      // Per courier: its due orders in batch jobs on its own queue (courier isolation).
      for (const courier of courierIds()) {
        const [due] = await db.select({ n: sql<number>`count(*)::int` }).from(
          db
            .select({ one: sql`1` })
            .from(shippingOrders)
            .where(
              and(
                eq(shippingOrders.courier, courier),
                isNull(shippingOrders.deletedAt),
                lte(shippingOrders.trackingNextAt, now),
              ),
            )
            .limit(options.trackingBatchSize * MAX_TRACKING_BATCHES_PER_TICK)
            .as("due"),
        );
        const batches = Math.ceil((due?.n ?? 0) / options.trackingBatchSize);
        if (batches > 0)
          await boss.insert(
            Array.from({ length: batches }, () => ({ name: trackingQueue(courier), data: { courier } })),
          );
      }
    }),
  );
  for (const courier of courierIds()) {
    await boss.work(
      trackingQueue(courier),
      polling,
      runJob(trackingQueue(courier), async () => {
        await advanceDueTracking(db, { courier, batchSize: options.trackingBatchSize });
      }),
    );
  }
  await boss.work(
    QUEUES.courierRecovery,
    polling,
    runJob(QUEUES.courierRecovery, async () => {
      await recoverAttempts(db);
    }),
  );
  await boss.work(
    QUEUES.eventsCleanup,
    polling,
    runJob(QUEUES.eventsCleanup, async () => {
      await purgeExpiredEvents(db);
      await purgeExpiredRecords(db);
    }),
  );
  await boss.work(
    QUEUES.webhookSweep,
    polling,
    runJob(QUEUES.webhookSweep, async () => {
      // Queues of endpoints made by an older version (a job for a missing queue would be dropped), and of
      // endpoints deleted; then deliveries whose attempt no one will finish or make.
      await ensureDeliveryQueues(db);
      await dropOrphanDeliveryQueues(db);
      await sweepStuckDeliveries(db, {
        graceSeconds: Math.ceil(attemptLeaseMs(options.delivery.timeoutMs) / 1000),
        retrySchedule: options.delivery.retrySchedule,
      });
    }),
  );

  await boss.work(
    QUEUES.statisticsCompact,
    polling,
    // The cron fires once a minute; the job compacts every few seconds until the next one is due, so a question
    // sums seconds of deltas, not a minute's (each create appends one or two rows per key, bench/results.md).
    runJob(QUEUES.statisticsCompact, async () => {
      await requeueLostRebuilds(db);
      const until = Date.now() + COMPACT_FOR_MS;
      for (;;) {
        await compactStatistics(db);
        if (stopping || Date.now() + COMPACT_EVERY_MS > until) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, COMPACT_EVERY_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }),
  );
  await boss.work<{ accountId: string }>(
    QUEUES.statisticsRebuild,
    polling,
    runJob<{ accountId: string }>(QUEUES.statisticsRebuild, async (jobs) => {
      for (const job of jobs) await rebuildStatistics(db, job.data.accountId);
    }),
  );

  // One job per replaced order's shipment; a courier that cannot answer fails it, and pg-boss asks again later.
  await boss.work<CourierCancelJob>(
    QUEUES.courierCancel,
    polling,
    runJob<CourierCancelJob>(QUEUES.courierCancel, async (jobs) => {
      for (const job of jobs) await cancelPredecessor(db, job.data.predecessor);
    }),
  );

  await startPickupPointJobs(boss, db, options.pollingSeconds);

  // Longer than any claimed attempt can take (its lease: the webhook timeout and the time to record its outcome).
  const stopTimeoutMs = attemptLeaseMs(options.delivery.timeoutMs) + 5000;
  return {
    boss,
    pump,
    // Stops taking jobs; delivery jobs fetched but not claimed go back unsent, attempts in flight finish and are
    // recorded (delivery-pump.ts); the other jobs in flight finish too.
    stop: async () => {
      stopping = true;
      wake();
      await pump.stop(stopTimeoutMs);
      await boss.stop({ graceful: true, wait: true, close: false, timeout: stopTimeoutMs });
    },
  };
}
