import { inArray } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { COURIERS_WITH_POINTS, pickupPointSyncs } from "@/db/schema/pickup-points";
import { allCouriers } from "@/server/couriers/registry";
import { FEED_IDS, FEEDS } from "@/server/pickup-points/sync/feeds";
import { formatMillis, millisTime } from "@/server/time";

export const pickupPointsView = z
  .object({
    count: z
      .number()
      .int()
      .describe("Open points in the courier's directory, as its feeds' last successful syncs left it"),
    syncedAt: millisTime
      .nullable()
      .describe(
        "When every point feed of the courier last synced completely (UTC, `yyyy-MM-ddTHH:mm:ss.fff`), or null if one never has",
      ),
  })
  .nullable()
  .describe("The courier's pickup-point directory; null for a courier without pickup points");

export const courierView = z.object({
  id: z.string(),
  name: z.string(),
  services: z.array(z.string()).describe("Service codes"),
  countries: z.array(z.string()).describe("ISO 3166-1 alpha-2 codes"),
  maxParcelWeightKg: z.number(),
  cod: z.boolean().describe("Whether the courier collects cash on delivery"),
  codCurrencies: z.array(z.string()).describe("ISO 4217 currencies accepted for cash on delivery"),
  pickupPoints: pickupPointsView,
});

export type CourierView = z.infer<typeof courierView>;
type PickupPointsView = z.infer<typeof pickupPointsView>;

/** The couriers as they are built in, with the directory each has as given (the OpenAPI example gives its own). */
export function courierItems(directory: (courier: string) => PickupPointsView): CourierView[] {
  return allCouriers().map(({ capabilities: c }) => ({
    id: c.id,
    name: c.name,
    services: c.services.map((s) => s.code),
    countries: [...c.countries],
    maxParcelWeightKg: c.maxParcelWeightKg,
    cod: c.codCurrencies.length > 0,
    codCurrencies: [...c.codCurrencies],
    pickupPoints: directory(c.id),
  }));
}

const hasPoints = (courier: string): courier is (typeof COURIERS_WITH_POINTS)[number] =>
  (COURIERS_WITH_POINTS as readonly string[]).includes(courier);

/**
 * The couriers, each with its directory's open points and its last complete sync: one read of the point feeds' sync
 * records (a handful of rows), whose open counts each sync stores, so no call counts the directory itself.
 */
export async function listCouriers(db: Executor): Promise<{ items: CourierView[] }> {
  const pointFeeds = FEED_IDS.filter((feed) => feed !== "packeta-carriers");
  const syncs = await db
    .select({ feed: pickupPointSyncs.feed, at: pickupPointSyncs.lastSuccessAt, open: pickupPointSyncs.lastOpenCount })
    .from(pickupPointSyncs)
    .where(inArray(pickupPointSyncs.feed, pointFeeds));
  // The sum of the courier's point feeds' open points (Packeta's points and boxes are scopes of their own).
  const count = (courier: string) =>
    syncs
      .filter((row) => FEEDS[row.feed as (typeof pointFeeds)[number]]?.courier === courier)
      .reduce((n, row) => n + (row.open ?? 0), 0);
  const syncedAt = (courier: string): string | null => {
    // The oldest of the courier's point feeds (Packeta's points and boxes): the directory is as fresh as that.
    const times = pointFeeds
      .filter((feed) => FEEDS[feed].courier === courier)
      .map((feed) => syncs.find((row) => row.feed === feed)?.at ?? null);
    if (times.some((at) => at === null)) return null;
    return formatMillis(new Date(Math.min(...times.map((at) => at!.getTime()))));
  };
  return {
    items: courierItems((courier) =>
      hasPoints(courier) ? { count: count(courier), syncedAt: syncedAt(courier) } : null,
    ),
  };
}
