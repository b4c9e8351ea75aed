import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, handle, rowsOf } from "@/db/client";
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

describe("searchPickupPoints filters, ordering and paging", () => {
  // Points of this block only, in a place of their own (no synthetic town nearby), named so a word finds them alone.
  const AT = { lat: 49.45, lon: 15.0 };
  const base = {
    courier: "ppl" as const,
    type: "POINT" as const,
    network: "parcelshop",
    street: "Náměstí Míru 1",
    city: "Pelhřimov",
    zip: "393 01",
    country: "CZ",
    openingHours: [],
    cod: true,
    cardPayment: false,
    maxWeightKg: null,
    maxSizeCm: null,
    open: true,
    closedSince: null,
  };
  const points = [
    { ...base, id: "FLT1", name: "Žluťoučký Kůň Filtr", latitude: AT.lat + 0.01, longitude: AT.lon },
    { ...base, id: "FLT2", name: "Žluťoučký Kůň Filtr B", latitude: AT.lat + 0.02, longitude: AT.lon, cod: false },
    {
      ...base,
      id: "FLT3",
      name: "Žluťoučký Kůň Filtr Box",
      latitude: AT.lat + 0.005,
      longitude: AT.lon,
      type: "LOCKER" as const,
      network: "parcelbox",
      maxWeightKg: 10,
    },
    {
      ...base,
      id: "FLT4",
      name: "Žluťoučký Kůň Filtr Zavřeno",
      latitude: AT.lat,
      longitude: AT.lon,
      open: false,
      closedSince: "2026-11-01",
    },
    {
      ...base,
      id: "FLT5",
      name: "Žluťoučký Kůň Filtr Daleko",
      latitude: AT.lat + 0.3,
      longitude: AT.lon,
      zip: "394 70",
    },
    { ...base, id: "FLT6", name: "Žluťoučký Kůň Filtr SK", latitude: AT.lat + 0.015, longitude: AT.lon, country: "SK" },
  ];
  const ids = (page: { items: { id: string }[] }) => page.items.map((p) => p.id);
  const search = async (input: Partial<Parameters<typeof searchPickupPoints>[1]>) =>
    searchPickupPoints(await getDb(), { courier: "ppl", q: "zlutoucky kun filtr", page: 1, pageSize: 50, ...input });

  beforeAll(async () => insertDirectoryPoints(await getDb(), points));

  it("ignores case and accents in every word, ANDs the words, and leaves closed points out unless open=false", async () => {
    expect(ids(await search({ q: "ŽLUŤOUČKÝ kůň FILTR" })).sort()).toEqual(["FLT1", "FLT2", "FLT3", "FLT5", "FLT6"]);
    expect(ids(await search({ q: "zlutoucky box" }))).toEqual(["FLT3"]);
    expect(ids(await search({ q: "zlutoucky nothing-like-this" }))).toEqual([]);
    expect(ids(await search({ open: false }))).toContain("FLT4");
  });

  it("filters by country, zip (spaces ignored), type, cod and weight", async () => {
    expect(ids(await search({ country: "sk" }))).toEqual(["FLT6"]);
    expect(ids(await search({ zip: "39470" }))).toEqual(["FLT5"]);
    expect(ids(await search({ type: "LOCKER" }))).toEqual(["FLT3"]);
    expect(ids(await search({ cod: true }))).not.toContain("FLT2");
    expect(ids(await search({ weightKg: 12 }))).not.toContain("FLT3");
    expect(ids(await search({ weightKg: 8 }))).toContain("FLT3");
  });

  it("orders by distance with near, within the radius, and by name without", async () => {
    const near = await search({ near: AT, radiusKm: 5 });
    expect(ids(near)).toEqual(["FLT3", "FLT1", "FLT6", "FLT2"]);
    expect(near.items.map((p) => p.distanceKm)).toEqual([0.56, 1.11, 1.67, 2.22]);
    expect(ids(await search({}))).toEqual(["FLT1", "FLT2", "FLT3", "FLT5", "FLT6"]);
  });

  it("pages with the envelope", async () => {
    const first = await search({ pageSize: 2 });
    expect(first).toMatchObject({
      page: 1,
      pageSize: 2,
      itemsCount: 5,
      totalPages: 3,
      nextPage: true,
      previousPage: false,
    });
    const last = await search({ pageSize: 2, page: 3 });
    expect(ids(last)).toEqual(["FLT6"]);
    expect(last).toMatchObject({ nextPage: false, previousPage: true });
  });
});

describe("the directory's indexes", () => {
  it("has the trigram index for text search (pg_trgm loaded on PostgreSQL and PGlite alike)", async () => {
    const db = await getDb();
    const rows = rowsOf<{ indexdef: string }>(
      await db.execute(sql`select indexdef from pg_indexes where indexname = 'pickup_points_search_text_idx'`),
    );
    expect(rows.map((r) => r.indexdef)).toEqual([expect.stringContaining("gin_trgm_ops")]);
  });

  it("runs on sessions without JIT compilation, directly and through the pooler", async () => {
    // A batch's suggestions query is costed far above what it does (a lateral over a JSON parameter counts as 100
    // rows); PostgreSQL's default jit = on would compile it for 54 ms to run for 15 (bench/pickup-points.ts). The
    // embedded PGlite is built without LLVM: it reports jit = on but can compile nothing, which is what matters.
    const db = await getDb();
    const [row] = rowsOf<{ jit: string; available: boolean }>(
      await db.execute(sql`select current_setting('jit') as jit, pg_jit_available() as available`),
    );
    if ((await handle()).kind === "postgres") expect(row?.jit).toBe("off");
    else expect(row?.available).toBe(false);
  });
});
