import { createHash } from "node:crypto";
import { and, eq, lt, ne, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { packetaCarriers, pickupPoints, pickupPointSyncs, type PointType } from "@/db/schema/pickup-points";
import { normalizeSearchText } from "../search-text";
import type { FeedPoint } from "./feed-point";
import type { PacketaCarrier } from "./parse-packeta";

/**
 * The directory written as a diff, one batch at a time and each batch in its own statements (no transaction spans a
 * feed's download): a row whose feed hash is unchanged only gets its `seenAt`; a new or changed row is upserted whole.
 * After a complete sync, rows of the feed's scope not seen since its start are closed. A sync that fails part-way
 * keeps the batches it wrote: each is the courier's own current data for those points, so the directory holds only
 * true rows, some fresher than others; what a failed sync never does is close a row (it cannot know which left) or
 * move `lastSuccessAt`.
 */

/** The hash a row vanished from its feed carries: a point that comes back is then rewritten (reopened) whole. */
const GONE = "gone";

export const feedHash = (value: unknown): string =>
  createHash("sha256").update(JSON.stringify(value)).digest("base64url");

/** Which rows one feed owns: a courier's, and for Packeta's two point feeds one type of them. */
export type FeedScope = { courier: "packeta" | "ppl"; type?: PointType };

const inScope = (scope: FeedScope): SQL =>
  scope.type
    ? and(eq(pickupPoints.courier, scope.courier), eq(pickupPoints.type, scope.type))!
    : eq(pickupPoints.courier, scope.courier);

export type WriteCounts = { listed: number; changed: number; unchanged: number };

/** Writes one batch of a feed's points; `seenAt` is the sync's start, `today` the date a closed point is closed since. */
export async function writePoints(
  db: Executor,
  points: readonly FeedPoint[],
  seenAt: Date,
  today: string,
  counts: WriteCounts,
): Promise<void> {
  if (points.length === 0) return;
  // A feed may list a point twice: the last entry wins, as a second write would.
  const byId = new Map(points.map((p) => [p.id, { point: p, hash: feedHash(p) }]));
  const courier = points[0]!.courier;
  // The batch's (id, hash) pairs as one JSON parameter: a row-value IN list of a thousand pairs is planned in time
  // that grows far faster than the list (minutes on PGlite); a join against a record set is one hash join.
  const pairs = JSON.stringify([...byId.values()].map(({ point, hash }) => ({ id: point.id, hash })));
  const same = await db
    .update(pickupPoints)
    .set({ seenAt })
    .from(sql`jsonb_to_recordset(${pairs}::jsonb) as seen(id text, hash text)`)
    .where(
      and(
        eq(pickupPoints.courier, courier),
        sql`${pickupPoints.id} = seen.id and ${pickupPoints.feedHash} = seen.hash`,
      ),
    )
    .returning({ id: pickupPoints.id });
  for (const { id } of same) byId.delete(id);
  counts.listed += points.length;
  counts.unchanged += same.length;
  counts.changed += byId.size;
  if (byId.size === 0) return;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  await db
    .insert(pickupPoints)
    .values(
      [...byId.values()].map(({ point, hash }) => ({
        ...point,
        closedSince: point.open ? null : today,
        searchText: normalizeSearchText(point.name, point.street, point.city, point.zip),
        feedHash: hash,
        seenAt,
        updatedAt: new Date(),
      })),
    )
    .onConflictDoUpdate({
      target: [pickupPoints.courier, pickupPoints.id],
      set: {
        type: excluded("type"),
        network: excluded("network"),
        name: excluded("name"),
        street: excluded("street"),
        city: excluded("city"),
        zip: excluded("zip"),
        country: excluded("country"),
        latitude: excluded("latitude"),
        longitude: excluded("longitude"),
        openingHours: excluded("opening_hours"),
        cod: excluded("cod"),
        cardPayment: excluded("card_payment"),
        maxWeightKg: excluded("max_weight_kg"),
        maxSizeCm: excluded("max_size_cm"),
        open: excluded("open"),
        // A point already closed stays closed since the day it closed, not since this sync.
        closedSince: sql`case when excluded.open then null else coalesce(${pickupPoints.closedSince}, excluded.closed_since) end`,
        searchText: excluded("search_text"),
        feedHash: excluded("feed_hash"),
        seenAt: excluded("seen_at"),
        updatedAt: excluded("updated_at"),
      },
    });
}

/** After a complete sync: the scope's rows its feed no longer lists are closed (kept, never deleted). */
export async function closeUnseen(db: Executor, scope: FeedScope, startedAt: Date, today: string): Promise<number> {
  const closed = await db
    .update(pickupPoints)
    .set({
      open: false,
      closedSince: sql`coalesce(${pickupPoints.closedSince}, ${today}::date)`,
      feedHash: GONE,
      updatedAt: new Date(),
    })
    .where(and(inScope(scope), lt(pickupPoints.seenAt, startedAt), ne(pickupPoints.feedHash, GONE)))
    .returning({ id: pickupPoints.id });
  return closed.length;
}

/** The scope's open rows (a feed that lists none while some are open is refused, not applied). */
export async function countPoints(db: Executor, scope: FeedScope): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pickupPoints)
    .where(and(inScope(scope), eq(pickupPoints.open, true)));
  return row?.n ?? 0;
}

/** Packeta's carriers: few (hundreds), upserted whole; carriers that left the feed become unavailable. */
export async function writeCarriers(db: Executor, carriers: readonly PacketaCarrier[], seenAt: Date): Promise<void> {
  for (let i = 0; i < carriers.length; i += 500) {
    const batch = carriers.slice(i, i + 500).map((c) => ({ ...c, seenAt, updatedAt: new Date() }));
    const columns = Object.keys(batch[0]!).filter((key) => key !== "id") as (keyof (typeof batch)[number])[];
    await db
      .insert(packetaCarriers)
      .values(batch)
      .onConflictDoUpdate({
        target: packetaCarriers.id,
        set: Object.fromEntries(
          columns.map((key) => [key, sql.raw(`excluded.${packetaCarriers[key as "name"].name}`)]),
        ),
      });
  }
  await db
    .update(packetaCarriers)
    .set({ available: false, updatedAt: new Date() })
    .where(and(lt(packetaCarriers.seenAt, seenAt), eq(packetaCarriers.available, true)));
}

export async function recordSyncStart(db: Executor, feed: string, courier: string, at: Date): Promise<void> {
  await db
    .insert(pickupPointSyncs)
    .values({ feed, courier, lastStartedAt: at })
    .onConflictDoUpdate({ target: pickupPointSyncs.feed, set: { lastStartedAt: at } });
}

export async function recordSyncSuccess(db: Executor, feed: string, durationMs: number, count: number): Promise<void> {
  await db
    .update(pickupPointSyncs)
    .set({ lastSuccessAt: new Date(), lastDurationMs: Math.round(durationMs), lastCount: count })
    .where(eq(pickupPointSyncs.feed, feed));
}

export async function recordSyncFailure(db: Executor, feed: string, error: string): Promise<void> {
  await db
    .update(pickupPointSyncs)
    .set({ lastError: error.slice(0, 2000), lastErrorAt: new Date() })
    .where(eq(pickupPointSyncs.feed, feed));
}
