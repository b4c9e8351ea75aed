import type PgBoss from "pg-boss";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { pickupPointSyncs } from "@/db/schema/pickup-points";
import { logger } from "@/server/observability/logger";
import { directoryConfigFromEnv, FEED_IDS, FEEDS, type FeedId } from "@/server/pickup-points/sync/feeds";
import { syncFeed } from "@/server/pickup-points/sync/sync-feed";
import { pickupPointQueue } from "@/server/queue/queues";
import { runJob } from "./run-job";

/** Couriers whose missing credentials were logged by this process (once each, not at every cron tick). */
const reportedUnconfigured = new Set<string>();

/** The worker's part of the directory: each feed on its cron, and at start the feeds older than their interval. */
export async function startPickupPointJobs(boss: PgBoss, db: Db, pollingSeconds: number): Promise<void> {
  for (const feed of FEED_IDS) {
    await boss.schedule(pickupPointQueue(feed), FEEDS[feed].cron);
    await boss.work(
      pickupPointQueue(feed),
      { pollingIntervalSeconds: pollingSeconds },
      runJob(pickupPointQueue(feed), async () => {
        const result = await syncFeed(db, feed, directoryConfigFromEnv());
        if (result.outcome === "not-configured") reportUnconfigured(feed);
        // Thrown so pg-boss retries it later; the failure is recorded already and the directory kept.
        if (result.outcome === "failed") throw new Error(result.error);
      }),
    );
  }
  await queueStaleFeeds(boss, db);
}

/** Feeds never synced or synced longer ago than their interval, queued now (a fresh database: all at once). */
export async function queueStaleFeeds(boss: PgBoss, db: Db): Promise<FeedId[]> {
  const config = directoryConfigFromEnv();
  const configured = FEED_IDS.filter((feed) => {
    if (config[FEEDS[feed].courier]) return true;
    reportUnconfigured(feed);
    return false;
  });
  if (configured.length === 0) return [];
  const synced = await db
    .select({ feed: pickupPointSyncs.feed, at: pickupPointSyncs.lastSuccessAt })
    .from(pickupPointSyncs)
    .where(inArray(pickupPointSyncs.feed, configured));
  const last = new Map(synced.map((row) => [row.feed, row.at]));
  const stale = configured.filter((feed) => {
    const at = last.get(feed);
    return !at || Date.now() - at.getTime() > FEEDS[feed].intervalHours * 3_600_000;
  });
  for (const feed of stale) await boss.send(pickupPointQueue(feed), {});
  return stale;
}

function reportUnconfigured(feed: FeedId): void {
  const courier = FEEDS[feed].courier;
  if (reportedUnconfigured.has(courier)) return;
  reportedUnconfigured.add(courier);
  logger.info(
    {
      courier,
      needs: courier === "packeta" ? "PACKETA_API_KEY" : "PPL_DIRECTORY_CLIENT_ID and PPL_DIRECTORY_CLIENT_SECRET",
    },
    "pickup-point directory not synced: no credentials configured",
  );
}
