import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { pickupPoints, pickupPointSyncs } from "@/db/schema/pickup-points";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { call, readJson } from "@/test/helpers";
import { createPartner } from "@/test/partner";
import { runOnOwnDatabase } from "@/test/own-database";
import { insertDirectoryPoints } from "@/test/pickup-points";
import { GET } from "./route";

// It marks couriers' directories synced: in the run's shared database that would make every other file's made-up
// PickupPoint unknown.
await runOnOwnDatabase();

type Item = { id: string; pickupPoints: { count: number; syncedAt: string | null } | null };

describe("GET /api/v2/couriers", () => {
  it("gives each courier with points its directory's open count and last complete sync, null for the sandbox", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await insertDirectoryPoints(db, syntheticPoints({ courier: "packeta", count: 50, seed: 991 }));
    const older = new Date("2026-11-27T03:05:00.000Z");
    const newer = new Date("2026-11-27T03:20:00.000Z");
    for (const [feed, at] of [
      ["packeta-points", older],
      ["packeta-boxes", newer],
    ] as const)
      await db
        .insert(pickupPointSyncs)
        .values({ feed, courier: "packeta", lastSuccessAt: at })
        .onConflictDoUpdate({ target: pickupPointSyncs.feed, set: { lastSuccessAt: at } });
    await db.delete(pickupPointSyncs).where(eq(pickupPointSyncs.feed, "ppl-access-points"));

    const response = await call(GET, "/api/v2/couriers", { token: partner.key });
    expect(response.status).toBe(200);
    const { items } = await readJson<{ items: Item[] }>(response);
    const open = async (courier: string) =>
      (await db.select({ open: pickupPoints.open }).from(pickupPoints).where(eq(pickupPoints.courier, courier))).filter(
        (r) => r.open,
      ).length;
    expect(items.find((c) => c.id === "sandbox")!.pickupPoints).toBeNull();
    const packeta = items.find((c) => c.id === "packeta")!.pickupPoints!;
    expect(packeta.count).toBe(await open("packeta"));
    expect(packeta.count).toBeGreaterThan(0);
    // The older of its two point feeds: the directory is only as fresh as that.
    expect(packeta.syncedAt).toBe(older.toISOString());
    // Never synced: no time, whatever points a test put there.
    expect(items.find((c) => c.id === "ppl")!.pickupPoints).toEqual({ count: await open("ppl"), syncedAt: null });
  });
});
