import { beforeAll, describe, expect, it, vi } from "vitest";
import { NoopLogger, sql } from "drizzle-orm";
import { getDb, handle, rowsOf } from "@/db/client";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { insertDirectoryPoints } from "@/test/pickup-points";
import type { AppError } from "@/server/errors";
import {
  compactZipSql,
  getPickupPoint,
  isStatementCancelled,
  lastSearchPage,
  MAX_SEARCH_WORDS,
  SEARCH_TIMEOUT_MS,
  searchPickupPoints,
  type ChargeSearch,
} from "./search-pickup-points";

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

  it("serves the zip filter, spaces ignored, from an index on the very expression the search uses", async () => {
    const db = await getDb();
    await db.execute(sql`analyze pickup_points`);
    const plan = rowsOf<Record<string, string>>(
      await db.execute(
        sql`explain select 1 from pickup_points where courier = 'ppl' and ${compactZipSql()} = ${"39470"}`,
      ),
    )
      .map((row) => Object.values(row)[0])
      .join("\n");
    expect(plan).toContain("pickup_points_compact_zip_idx");
    expect(plan).not.toMatch(/Seq Scan/);
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

describe("a search's work is bounded before it runs", () => {
  /** The SQL statements `work` sends, and how many times its search was charged. */
  async function statementsOf(work: (charge: ChargeSearch) => Promise<unknown>) {
    const statements: string[] = [];
    let charged = 0;
    // On the prototype: a transaction's session has a logger of its own, not the handle's.
    const spy = vi
      .spyOn(NoopLogger.prototype as { logQuery(query: string): void }, "logQuery")
      .mockImplementation((query: string) => {
        statements.push(query);
      });
    let outcome: unknown;
    try {
      outcome = await work(async () => {
        charged += 1;
      }).catch((error: unknown) => error);
    } finally {
      spy.mockRestore();
    }
    const searches = statements.filter((q) => /"pickup_points"/.test(q));
    const predicates = (pattern: RegExp) => searches.map((q) => q.match(pattern)?.length ?? 0);
    return { outcome, statements, searches, charged, likes: predicates(/ like /g), strpos: predicates(/strpos\(/g) };
  }
  const search = (input: Partial<Parameters<typeof searchPickupPoints>[1]>) => async (charge: ChargeSearch) =>
    searchPickupPoints(await getDb(), { courier: "packeta", page: 1, pageSize: 20, ...input }, charge);
  const refusal = (outcome: unknown) => (outcome as AppError).errors?.map((e) => e.field);

  beforeAll(async () => insertDirectoryPoints(await getDb(), syntheticPoints({ courier: "packeta", count: 3000 })));

  it("matches a word repeated 50 times once, one inside another not at all, and a whole address", async () => {
    const repeated = await statementsOf(search({ q: Array.from({ length: 50 }, () => "plzen").join(" ") }));
    expect((repeated.outcome as { itemsCount: number }).itemsCount).toBeGreaterThan(0);
    expect(repeated.likes).toEqual([1, 1]);
    const inside = await statementsOf(search({ q: "plz plzen PLZEŇ" }));
    expect(inside.likes).toEqual([1, 1]);
    const address = await statementsOf(search({ q: "Náměstí Míru 12, 602 00 Brno" }));
    expect(address.outcome).toMatchObject({ page: 1 });
    // No point has that address: the count alone ran, with one LIKE per long word and a filter per short one.
    expect(address.likes).toEqual([4]);
    expect(address.strpos).toEqual([2]);
  });

  it("takes 1- and 2-letter words only as a filter of what an indexed condition found, never as a LIKE", async () => {
    const zip = [...syntheticPoints({ courier: "packeta", count: 3000 })][0]!.zip;
    const fifty = await statementsOf(search({ q: Array.from({ length: 50 }, () => "a").join(" "), zip }));
    expect(fifty.outcome).toMatchObject({ page: 1 });
    expect(fifty.likes.every((n) => n === 0)).toBe(true);
    expect(fifty.strpos.every((n) => n <= 1)).toBe(true);
    // Alone, they would read the whole directory: refused, naming q, before any statement or charge.
    const alone = await statementsOf(search({ q: Array.from({ length: 50 }, () => "a").join(" ") }));
    expect(refusal(alone.outcome)).toEqual(["q"]);
    expect(alone).toMatchObject({ statements: [], charged: 0 });
  });

  it(`refuses more than ${MAX_SEARCH_WORDS} different words, naming q, with no statement run`, async () => {
    const many = await statementsOf(search({ q: "one two three four five six seven eight nine" }));
    expect(refusal(many.outcome)).toEqual(["q"]);
    expect(many).toMatchObject({ statements: [], charged: 0 });
  });

  it("refuses a page past the matches from the count alone, naming page, and answers the last one", async () => {
    const far = await statementsOf(search({ page: 999_999_999 }));
    expect(refusal(far.outcome)).toEqual(["page"]);
    expect(far.searches).toHaveLength(1);
    const first = (await search({ q: "plzen" })(async () => {})) as { itemsCount: number };
    const pastLast = await statementsOf(search({ q: "plzen", page: lastSearchPage(first.itemsCount, 20) + 1 }));
    expect(refusal(pastLast.outcome)).toEqual(["page"]);
    expect(pastLast.searches).toHaveLength(1);
    const last = await search({ q: "plzen", page: lastSearchPage(first.itemsCount, 20) })(async () => {});
    expect(last.items.length).toBeGreaterThan(0);
  });

  it("charges a search once, and runs it under a statement timeout set for its own transaction", async () => {
    const run = await statementsOf(search({ q: "plzen" }));
    expect(run.charged).toBe(1);
    // SET LOCAL, never a session SET: behind PgBouncer in transaction mode a session setting would outlive the search.
    expect(run.statements.slice(0, 1)).toEqual([`set local statement_timeout = ${SEARCH_TIMEOUT_MS}`]);
    expect(run.statements.filter((q) => /statement_timeout/.test(q))).toHaveLength(1);
  });

  it("tells a statement cancelled by the timeout from other failures, as the driver reports it", async () => {
    const db = await getDb();
    const error = await db
      .transaction(async (tx) => {
        await tx.execute(sql.raw("set local statement_timeout = 1"));
        await tx.execute(sql`select pg_sleep(0.2)`);
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    // PGlite (one process, no timer signal) does not cancel statements: there the search simply runs to its end.
    if ((await handle()).kind === "postgres") expect(isStatementCancelled(error)).toBe(true);
    expect(isStatementCancelled(new Error("boom"))).toBe(false);
  });
});

describe("searchPickupPoints counts", () => {
  // 1,210 open lockers of one country, among 20,000 other points: the count above 1,000 is the real total.
  const LOCKERS = 1210;
  const locker = (i: number) => ({
    courier: "ppl" as const,
    id: `CNT${i}`,
    type: "LOCKER" as const,
    network: "parcelbox",
    name: `Schránka Počet ${i}`,
    street: "Hlavní 1",
    city: "Jihlava",
    zip: "586 01",
    country: "SK",
    latitude: 49.4,
    longitude: 15.59,
    openingHours: [],
    cod: true,
    cardPayment: true,
    maxWeightKg: 20,
    maxSizeCm: null,
    open: true,
    closedSince: null,
  });

  beforeAll(async () => {
    const db = await getDb();
    await insertDirectoryPoints(db, syntheticPoints({ courier: "ppl", count: 20_000 }));
    await insertDirectoryPoints(
      db,
      Array.from({ length: LOCKERS }, (_, i) => locker(i)),
    );
    await db.execute(sql`analyze pickup_points`);
  });

  const lockers = async (more: Partial<Parameters<typeof searchPickupPoints>[1]> = {}) => {
    const db = await getDb();
    const otherLockers = (
      rowsOf(
        await db.execute(
          sql`select count(*)::int as n from pickup_points where courier = 'ppl' and country = 'SK' and type = 'LOCKER' and open and id not like 'CNT%'`,
        ),
      ) as { n: number }[]
    )[0]!.n;
    const page = await searchPickupPoints(db, {
      courier: "ppl",
      country: "SK",
      type: "LOCKER",
      page: 1,
      pageSize: 20,
      ...more,
    });
    return { page, expected: LOCKERS + otherLockers };
  };

  it("answers the exact total above 1,000, and pages to its end", async () => {
    const { page, expected } = await lockers();
    expect(page.itemsCount).toBe(expected);
    expect(page.totalPages).toBe(Math.ceil(expected / 20));
    const last = await lockers({ page: page.totalPages });
    expect(last.page.items).toHaveLength(expected - (page.totalPages - 1) * 20);
    expect(last.page.nextPage).toBe(false);
    const q = await lockers({ q: "pocet", country: "SK" });
    expect(q.page.itemsCount).toBe(LOCKERS);
  });

  it("counts attribute filters from the index alone, never by a scan of the table", async () => {
    const db = await getDb();
    const plan = rowsOf(
      await db.execute(
        sql`explain select count(*) from pickup_points where courier = 'ppl' and country = 'SK' and open = true and type = 'LOCKER' and cod = true and (max_weight_kg is null or max_weight_kg >= 5)`,
      ),
    )
      .map((row) => Object.values(row as Record<string, string>)[0])
      .join("\n");
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(
      /Index Only Scan using pickup_points_attributes_idx|Bitmap Index Scan on pickup_points_attributes_idx/,
    );
  });
});
