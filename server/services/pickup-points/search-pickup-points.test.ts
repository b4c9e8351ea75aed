import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { insertDirectoryPoints } from "@/test/pickup-points";
import { getPickupPoint, searchPickupPoints } from "./search-pickup-points";

const PLZEN = { lat: 49.7384, lon: 13.3736 };

describe("searchPickupPoints", () => {
  beforeAll(async () => {
    const db = await getDb();
    await insertDirectoryPoints(db, syntheticPoints({ courier: "packeta", count: 3000 }));
  });

  it("finds a town by its name without accents, in any case", async () => {
    const db = await getDb();
    const page = await searchPickupPoints(db, { courier: "packeta", q: "PLZEN", page: 1, pageSize: 5 });
    expect(page.itemsCount).toBeGreaterThan(0);
    for (const point of page.items) expect(point.city).toBe("Plzeň");
  });

  it("orders by distance within the radius and reports it", async () => {
    const db = await getDb();
    const page = await searchPickupPoints(db, { courier: "packeta", near: PLZEN, radiusKm: 10, page: 1, pageSize: 20 });
    expect(page.items.length).toBeGreaterThan(0);
    const distances = page.items.map((p) => p.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(10);
    for (const point of page.items) expect(point.open).toBe(true);
  });

  it("answers one point, closed ones included, and 404 for an unknown one", async () => {
    const db = await getDb();
    const closed = [...syntheticPoints({ courier: "packeta", count: 3000 })].find((p) => !p.open)!;
    expect((await getPickupPoint(db, "packeta", closed.id)).open).toBe(false);
    await expect(getPickupPoint(db, "packeta", "does-not-exist")).rejects.toMatchObject({ code: "not_found" });
  });
});
