import type PgBoss from "pg-boss";
import { courierIds } from "@/server/couriers/registry";

/**
 * One bounded batch of one courier's orders whose tracking is due. A queue per courier, each worked on its own,
 * so one courier's outage or slowness never delays another courier's tracking.
 */
export const trackingQueue = (courier: string) => `tracking-batch-${courier}`;

/** Every queue the app uses; created (idempotently) wherever pg-boss starts. */
export const QUEUES = {
  /** One attempt of one webhook delivery: `{ deliveryId, attempt }`. */
  webhookDelivery: "webhook-delivery",
  /** Every minute: splits the due tracking work into batch jobs. */
  trackingTick: "tracking-tick",
  /** Every minute: finishes create attempts whose process died between the courier's answer and the commit. */
  courierRecovery: "courier-recovery",
  /** Every minute: re-queues pending deliveries whose attempt is overdue and that no job will make. */
  webhookSweep: "webhook-sweep",
  /** Hourly: removes events past their retention. */
  eventsCleanup: "events-cleanup",
  /** Every minute: folds the statistics deltas the triggers appended into the daily rows. */
  statisticsCompact: "statistics-compact",
  /** One account's statistics recounted after its time zone changed: `{ accountId }`. */
  statisticsRebuild: "statistics-rebuild",
} as const;

/** `endpointId` lets a worker cap attempts per endpoint before it claims one (absent on jobs queued before it). */
export type DeliveryJob = {
  deliveryId: string;
  attempt: number;
  endpointId?: string;
  requestId?: string;
  /** How often this attempt was handed back because its endpoint was slow (each time it waits longer). */
  deferrals?: number;
};

/**
 * A delivery job expires (its worker died) and is then retried by pg-boss; the retry schedule of failed answers
 * is ours, as separate jobs (see deliver-webhook.ts). An attempt ends within the timeout (DNS lookup included)
 * plus two short statements, so twice the timeout and 10 s more is safely above its worst case: a job never
 * expires while its attempt is still running, which would let a second worker POST the same attempt.
 */
export const deliveryJobExpirySeconds = (webhookTimeoutMs: number) => Math.ceil((2 * webhookTimeoutMs) / 1000) + 10;

export const QUEUE_OPTIONS: PgBoss.Queue[] = [
  // Every job sets its own expiry (deliveryJobExpirySeconds of the configured timeout); this is the fallback.
  { name: QUEUES.webhookDelivery, retryLimit: 10, retryDelay: 1, expireInSeconds: 30, retentionMinutes: 60 * 24 * 2 },
  { name: QUEUES.trackingTick, retryLimit: 0, expireInSeconds: 120 },
  // A batch polls its courier (timeout up to 60 s per call) and writes once: ten minutes is far above it.
  ...courierIds().map((id) => ({ name: trackingQueue(id), retryLimit: 2, expireInSeconds: 600 })),
  { name: QUEUES.courierRecovery, retryLimit: 0, expireInSeconds: 900 },
  { name: QUEUES.eventsCleanup, retryLimit: 1, expireInSeconds: 600 },
  { name: QUEUES.webhookSweep, retryLimit: 0, expireInSeconds: 120 },
  { name: QUEUES.statisticsCompact, retryLimit: 0, expireInSeconds: 600 },
  // A rebuild may read millions of records (its statement timeout is 15 minutes); a retry after a crash redoes it whole.
  { name: QUEUES.statisticsRebuild, retryLimit: 5, retryDelay: 30, expireInSeconds: 20 * 60 },
];
