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
  // that grows far faster than the list (minutes on PGlite); a join against a record set is one hash join. The rows
  // are found by primary key (`id = any(…)`, the batch's ids): joined on the pairs alone, the planner reads every row
  // of the courier for each batch, a sync's cost growing with the square of the directory's size.
  const pairs = JSON.stringify([...byId.values()].map(({ point, hash }) => ({ id: point.id, hash })));
  const same = await db
    .update(pickupPoints)
    .set({ seenAt })
    .from(sql`jsonb_to_recordset(${pairs}::jsonb) as seen(id text, hash text)`)
    .where(
      and(
        eq(pickupPoints.courier, courier),
        sql`${pickupPoints.id} = any(array(select jsonb_array_elements(${pairs}::jsonb) ->> 'id'))`,
        sql`${pickupPoints.id} = seen.id and ${pickupPoints.feedHash} = seen.hash`,
      ),
    )
    .returning({ id: pickupPoints.id });
  for (const { id } of same) byId.delete(id);
  counts.listed += points.length;
  counts.unchanged += same.length;
  counts.changed += byId.size;
  if (byId.size === 0) return;
  // The new and changed rows as one JSON parameter too, inserted from `jsonb_to_recordset`: a multi-row VALUES of a
  // thousand rows is twenty thousand parameters, which the query builder assembled one by one (the sync's largest
  // CPU cost after the JSON tokenizer) and PostgreSQL bound one by one.
  const rows = JSON.stringify(
    [...byId.values()].map(({ point, hash }) => ({
      courier: point.courier,
      id: point.id,
      type: point.type,
      network: point.network,
      name: point.name,
      street: point.street,
      city: point.city,
      zip: point.zip,
      country: point.country,
      latitude: point.latitude,
      longitude: point.longitude,
      opening_hours: point.openingHours,
      cod: point.cod,
      card_payment: point.cardPayment,
      max_weight_kg: point.maxWeightKg,
      max_size_cm: point.maxSizeCm,
      open: point.open,
      search_text: normalizeSearchText(point.name, point.street, point.city, point.zip),
      feed_hash: hash,
    })),
  );
  const at = seenAt.toISOString();
  await db.execute(sql`
    insert into pickup_points (courier, id, type, network, name, street, city, zip, country, latitude, longitude,
      opening_hours, cod, card_payment, max_weight_kg, max_size_cm, open, closed_since, search_text, feed_hash,
      seen_at, updated_at)
    select courier, id, type, network, name, street, city, zip, country, latitude, longitude,
      opening_hours, cod, card_payment, max_weight_kg, max_size_cm, open,
      case when open then null else ${today}::date end, search_text, feed_hash, ${at}::timestamptz, ${new Date().toISOString()}::timestamptz
    from jsonb_to_recordset(${rows}::jsonb) as point(courier text, id text, type text, network text, name text,
      street text, city text, zip text, country text, latitude double precision, longitude double precision,
      opening_hours jsonb, cod boolean, card_payment boolean, max_weight_kg double precision, max_size_cm jsonb,
      open boolean, search_text text, feed_hash text)
    on conflict (courier, id) do update set
      type = excluded.type, network = excluded.network, name = excluded.name, street = excluded.street,
      city = excluded.city, zip = excluded.zip, country = excluded.country, latitude = excluded.latitude,
      longitude = excluded.longitude, opening_hours = excluded.opening_hours, cod = excluded.cod,
      card_payment = excluded.card_payment, max_weight_kg = excluded.max_weight_kg,
      max_size_cm = excluded.max_size_cm, open = excluded.open,
      -- A point already closed stays closed since the day it closed, not since this sync.
      closed_since = case when excluded.open then null
        else coalesce(pickup_points.closed_since, excluded.closed_since) end,
      search_text = excluded.search_text, feed_hash = excluded.feed_hash, seen_at = excluded.seen_at,
      updated_at = excluded.updated_at
  `);
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

/** A sync that succeeded: `listed` rows in the feed, `openPoints` open in its scope after it (null: not a point feed). */
export async function recordSyncSuccess(
  db: Executor,
  feed: string,
  durationMs: number,
  listed: number,
  openPoints: number | null,
): Promise<void> {
  await db
    .update(pickupPointSyncs)
    .set({
      lastSuccessAt: new Date(),
      lastDurationMs: Math.round(durationMs),
      lastCount: listed,
      lastOpenCount: openPoints,
    })
    .where(eq(pickupPointSyncs.feed, feed));
}

export async function recordSyncFailure(db: Executor, feed: string, error: string): Promise<void> {
  await db
    .update(pickupPointSyncs)
    .set({ lastError: error.slice(0, 2000), lastErrorAt: new Date() })
    .where(eq(pickupPointSyncs.feed, feed));
}
