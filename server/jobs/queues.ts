import type PgBoss from "pg-boss";

/** Every queue the app uses; created (idempotently) wherever pg-boss starts. */
export const QUEUES = {
  /** One attempt of one webhook delivery: `{ deliveryId, attempt }`. */
  webhookDelivery: "webhook-delivery",
  /** Every minute: splits the due tracking work into batch jobs. */
  trackingTick: "tracking-tick",
  /** One bounded batch of orders whose tracking step is due. */
  trackingBatch: "tracking-batch",
  /** Hourly: removes events past their retention. */
  eventsCleanup: "events-cleanup",
} as const;

export type DeliveryJob = { deliveryId: string; attempt: number };

/**
 * A delivery job expires (its worker died or hung) a little after the HTTP timeout and is then retried by
 * pg-boss; the retry schedule of failed answers is ours, as separate jobs (see deliver-webhook.ts).
 */
export const deliveryJobExpirySeconds = (webhookTimeoutMs: number) => Math.ceil(webhookTimeoutMs / 1000) + 5;

export const QUEUE_OPTIONS: PgBoss.Queue[] = [
  { name: QUEUES.webhookDelivery, retryLimit: 10, retryDelay: 1, expireInSeconds: 30, retentionMinutes: 60 * 24 * 2 },
  { name: QUEUES.trackingTick, retryLimit: 0, expireInSeconds: 120 },
  { name: QUEUES.trackingBatch, retryLimit: 2, expireInSeconds: 120 },
  { name: QUEUES.eventsCleanup, retryLimit: 1, expireInSeconds: 600 },
];
