import type { Executor } from "@/db/client";
import { pickupPoints } from "@/db/schema";
import { normalizeSearchText } from "@/server/pickup-points/search-text";
import { feedHash } from "@/server/pickup-points/sync/write-directory";
import type { DirectoryPoint } from "@/server/pickup-points/directory-point";

/**
 * Puts points straight into the directory for tests that are about reading it (search, validation, the picker),
 * not about syncing it. The sync's own tests go through the fake feeds.
 */
export async function insertDirectoryPoints(db: Executor, points: Iterable<DirectoryPoint>, batchSize = 1000) {
  const seenAt = new Date();
  let batch: (typeof pickupPoints.$inferInsert)[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await db.insert(pickupPoints).values(batch).onConflictDoNothing();
    batch = [];
  };
  for (const point of points) {
    batch.push({
      ...point,
      searchText: normalizeSearchText(point.name, point.street, point.city, point.zip),
      feedHash: feedHash(point),
      seenAt,
    });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
}
