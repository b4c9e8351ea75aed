import { getDb } from "@/db/client";
import { pickupPointSyncs } from "@/db/schema";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { insertDirectoryPoints } from "@/test/pickup-points";

/** How many of the synthetic directory's points the e2e database holds per courier. */
const COUNT = { packeta: 3000, ppl: 1000 } as const;

/**
 * The e2e database's pickup-point directories: the synthetic points (the same ones `npm run dev` syncs from the fake
 * feeds), and Packeta's marked synced, as after the worker's first sync. Validation then checks every Packeta
 * `PickupPoint` against it (and suggests others), so every spec that sends one takes it from `packetaPointId()`
 * and calls this first. Inserting again is a no-op: any spec may call it, in any order.
 */
export async function seedDirectories(): Promise<void> {
  const db = await getDb();
  await insertDirectoryPoints(db, syntheticPoints({ courier: "packeta", count: COUNT.packeta }));
  await insertDirectoryPoints(db, syntheticPoints({ courier: "ppl", count: COUNT.ppl }));
  await db
    .insert(pickupPointSyncs)
    .values({ feed: "packeta-points", courier: "packeta", lastSuccessAt: new Date(), lastCount: COUNT.packeta })
    .onConflictDoNothing();
}

/** An open Packeta point in CZ that takes cash on delivery and the specs' parcels (up to 10 kg). */
export function packetaPointId(): string {
  for (const point of syntheticPoints({ courier: "packeta", count: COUNT.packeta }))
    if (point.open && point.country === "CZ" && point.type === "POINT" && point.cod && (point.maxWeightKg ?? 0) >= 10)
      return point.id;
  throw new Error("the synthetic directory has no open Packeta point in CZ");
}
