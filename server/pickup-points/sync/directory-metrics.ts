import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { pickupPoints } from "@/db/schema/pickup-points";
import { metrics } from "@/server/observability/metrics";

/** After a sync: its duration and outcome, and the directory's counts by courier and open (one grouped count). */
export async function recordDirectoryMetrics(
  db: Executor,
  feed: string,
  outcome: "synced" | "failed",
  durationMs: number,
): Promise<void> {
  metrics.pickupPointSyncDuration.observe({ feed, outcome }, durationMs / 1000);
  if (outcome === "synced") metrics.pickupPointSyncSuccess.set({ feed }, Date.now() / 1000);
  const rows = await db
    .select({ courier: pickupPoints.courier, open: pickupPoints.open, n: sql<number>`count(*)::int` })
    .from(pickupPoints)
    .groupBy(pickupPoints.courier, pickupPoints.open);
  for (const row of rows) metrics.pickupPoints.set({ courier: row.courier, open: String(row.open) }, row.n);
}
