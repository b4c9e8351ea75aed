import type PgBoss from "pg-boss";
import { courierIds } from "@/server/couriers/registry";
import { FEED_IDS, type FeedId } from "@/server/pickup-points/sync/feeds";

/**
 * One bounded batch of one courier's orders whose tracking is due. A queue per courier, each worked on its own,
 * so one courier's outage or slowness never delays another courier's tracking.
 */
export const trackingQueue = (courier: string) => `tracking-batch-${courier}`;

/** Every queue the app uses; created (idempotently) wherever pg-boss starts. */
export const QUEUES = {
  /**
   * Delivery jobs queued before each endpoint had its own queue (see `deliveryQueue`): the pump moves them to
   * their endpoint's queue, unsent, so they are fetched fairly too.
   */
  webhookDelivery: "webhook-delivery",
  /** Every minute: splits the due tracking work into batch jobs. */
  trackingTick: "tracking-tick",
  /** Every minute: finishes create attempts whose process died between the courier's answer and the commit. */
  courierRecovery: "courier-recovery",
  /** Every minute: re-queues pending deliveries whose attempt is overdue and that no job will make. */
  webhookSweep: "webhook-sweep",
  /**
   * Hourly: removes events past their retention, then validation results and refused attempts (90 days), stored
   * idempotent answers (24 hours) and idle rate-limit buckets (purge-expired-records.ts).
   */
  eventsCleanup: "events-cleanup",
  /** Every minute: folds the statistics deltas the triggers appended into the daily rows. */
  statisticsCompact: "statistics-compact",
  /**
   * One account's statistics recounted after its time zone changed: `{ accountId }`, singleton key the account id.
   * The queue is `short`: per account at most one job waits (a later send is dropped), so a burst of changes queues one
   * rebuild. Not `stately`: pg-boss's fetch of a job whose account has one running fails its whole batch, which would
   * hold every other account's rebuild behind it; two rebuilds of one account queue on its lock instead.
   */
  statisticsRebuild: "statistics-rebuild",
  /**
   * A replaced order's shipment to cancel at its courier (`{ predecessor }`, shipping-orders/cancel-predecessors.ts):
   * queued in the transaction that replaces the order, so the cancel survives a courier that fails right then and a
   * process that dies before it; the request cancels at once and drops the job when that worked.
   */
  courierCancel: "courier-cancel",
} as const;

/** One attempt of one delivery. `attempt` is the number of attempts made before it: the claim moves it on. */
export type DeliveryJob = {
  deliveryId: string;
  attempt: number;
  /** Absent only on jobs queued in the legacy queue by an older version. */
  endpointId?: string;
  requestId?: string;
};

/**
 * Each endpoint's delivery attempts have a queue of their own (pg-boss 10 makes each queue a partition of its job
 * table; any name is allowed, the partition is named by its hash), so that the pump can choose whose jobs it
 * fetches: round-robin over accounts, then endpoints, never one global FIFO where one account's flood sits ahead of
 * everyone (see delivery-pump.ts). pg-boss silently drops a job sent to a queue that does not exist: the queue is
 * created with the endpoint, and `ensureDeliveryQueues` recreates any that is missing.
 */
export const DELIVERY_QUEUE_PREFIX = "webhook-delivery.";
export const deliveryQueue = (endpointId: string) => `${DELIVERY_QUEUE_PREFIX}${endpointId}`;

/**
 * The job's expiry no longer guards the one-POST rule: an attempt is fenced by its own token and lease
 * (deliver-webhook.ts), so an expired job that pg-boss retries finds its attempt already claimed and only completes.
 * What it does guard is a job fetched by a worker that died before claiming it (or that lost the database and could
 * not fail it back): pg-boss retries it once expired, so its delivery waits a minute or two, not a quarter of an hour.
 * A run claims within milliseconds of its fetch and completes its job within its lease (the default timeout + 15 s).
 */
const DELIVERY_JOB_EXPIRY_SECONDS = 60;

/** The options of every endpoint's delivery queue (and of the legacy one). */
export const deliveryQueueOptions = (name: string): PgBoss.Queue => ({
  name,
  // A job fails only when the worker could not claim it (the database went away, say): its retry is harmless.
  retryLimit: 10,
  retryDelay: 2,
  retryBackoff: true,
  expireInSeconds: DELIVERY_JOB_EXPIRY_SECONDS,
  retentionMinutes: 60 * 24 * 2,
});

/**
 * One pickup-point directory feed's sync (server/pickup-points/sync/). `stately`: one sync of a feed runs at a time
 * across every worker, and at most one more waits (the cron's and the start-up catch-up's sends fold into it). A
 * failed sync is retried once after five minutes; a full download of Europe's points takes about a minute.
 */
export const pickupPointQueue = (feed: FeedId) => `pickup-points-${feed}`;

export const QUEUE_OPTIONS: PgBoss.Queue[] = [
  deliveryQueueOptions(QUEUES.webhookDelivery),
  { name: QUEUES.trackingTick, retryLimit: 0, expireInSeconds: 120 },
  // A batch polls its courier (timeout up to 60 s per call) and writes once: ten minutes is far above it.
  ...courierIds().map((id) => ({ name: trackingQueue(id), retryLimit: 2, expireInSeconds: 600 })),
  { name: QUEUES.courierRecovery, retryLimit: 0, expireInSeconds: 900 },
  // A courier down for a while: asked again after 30 s, 1, 2, 4 … minutes, for about a day and a half in all.
  { name: QUEUES.courierCancel, retryLimit: 12, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  { name: QUEUES.eventsCleanup, retryLimit: 1, expireInSeconds: 600 },
  { name: QUEUES.webhookSweep, retryLimit: 0, expireInSeconds: 120 },
  { name: QUEUES.statisticsCompact, retryLimit: 0, expireInSeconds: 600 },
  // A rebuild may read millions of records (its statement timeout is 15 minutes); a retry after a crash redoes it whole.
  {
    name: QUEUES.statisticsRebuild,
    policy: "short",
    retryLimit: 5,
    retryDelay: 30,
    expireInSeconds: 20 * 60,
  },
  ...FEED_IDS.map((feed) => ({
    name: pickupPointQueue(feed),
    policy: "stately",
    retryLimit: 1,
    retryDelay: 300,
    expireInSeconds: 30 * 60,
  })),
];

/**
 * Creates the app's queues, and brings the policy of one made by an older version up to date (pg-boss's createQueue
 * leaves an existing queue as it is, and a job takes its queue's policy when it is sent).
 */
export async function createQueues(boss: PgBoss): Promise<void> {
  for (const queue of QUEUE_OPTIONS) {
    await boss.createQueue(queue.name, queue);
    if (queue.policy) await boss.updateQueue(queue.name, queue);
  }
}

/** A rebuild waits this long after the change that queued it, so that changes in a row are one rebuild. */
export const REBUILD_DEBOUNCE_SECONDS = 5;

/** The job that recounts an account's statistics: one per account waiting at a time (later sends are dropped). */
export const statisticsRebuildJob = (accountId: string): PgBoss.JobInsert => ({
  name: QUEUES.statisticsRebuild,
  data: { accountId },
  singletonKey: accountId,
  startAfter: new Date(Date.now() + REBUILD_DEBOUNCE_SECONDS * 1000).toISOString(),
});
