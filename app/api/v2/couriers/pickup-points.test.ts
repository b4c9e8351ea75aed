import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { MAX_NAME_ORDERED } from "@/server/services/pickup-points/search-pickup-points";
import { REQUEST_COSTS } from "@/server/services/rate-limits/request-costs";
import { readJson } from "@/test/helpers";
import { as, createPartner, type Partner } from "@/test/partner";
import { runOnOwnDatabase } from "@/test/own-database";
import { insertDirectoryPoints } from "@/test/pickup-points";
import * as search from "./[courier_id]/pickup-points/route";
import * as one from "./[courier_id]/pickup-points/[id]/route";

// It counts whole directories: other files' points in the run's shared database would change the figures.
await runOnOwnDatabase();

type Point = { id: string; courier: string; city: string; open: boolean; distanceKm?: number; cod: boolean };
type Page = { page: number; pageSize: number; totalPages: number; itemsCount: number; items: Point[] };
type Problem = { status: number; detail: string; errors?: { field: string; message: string }[] };

const PACKETA = [...syntheticPoints({ courier: "packeta", count: 1500 })];
const PPL = [...syntheticPoints({ courier: "ppl", count: 800 })];

let partner: Partner;
const get = (path: string, params: Record<string, string>) =>
  as(partner)(params.id ? one.GET : search.GET, path, { params });
const searchOf = (courier: string, query = "") =>
  get(`/api/v2/couriers/${courier}/pickup-points${query ? `?${query}` : ""}`, { courier_id: courier });

beforeAll(async () => {
  const db = await getDb();
  await insertDirectoryPoints(db, PACKETA);
  await insertDirectoryPoints(db, PPL);
  partner = await createPartner({ permissions: ["configurations:read"] });
});

describe("GET /couriers/{courier_id}/pickup-points", () => {
  it("answers the pagination envelope of one courier's open points", async () => {
    const response = await searchOf("ppl", "pageSize=7");
    expect(response.status).toBe(200);
    const page = await readJson<Page>(response);
    expect(page).toMatchObject({ page: 1, pageSize: 7, itemsCount: PPL.filter((p) => p.open).length });
    expect(page.items).toHaveLength(7);
    for (const point of page.items) expect(point).toMatchObject({ courier: "ppl", open: true });
  });

  it("finds by text without accents, near a place within the radius, with every filter of the query", async () => {
    const text = await readJson<Page>(await searchOf("packeta", "q=plzen&country=cz"));
    expect(text.itemsCount).toBeGreaterThan(0);
    for (const point of text.items) expect(point.city).toBe("Plzeň");
    const near = await readJson<Page>(
      await searchOf("packeta", "near=49.7384,13.3736&radiusKm=5&cod=true&weightKg=2.5&type=POINT"),
    );
    expect(near.items.length).toBeGreaterThan(0);
    const distances = near.items.map((p) => p.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(5);
    for (const point of near.items) expect(point.cod).toBe(true);
  });

  it("lists closed points too with open=false", async () => {
    const closed = PACKETA.filter((p) => !p.open);
    const town = closed[0]!.city;
    const inTown = PACKETA.filter((p) => p.city === town);
    expect(inTown.length).toBeLessThan(MAX_NAME_ORDERED);
    const all = await readJson<Page>(await searchOf("packeta", `open=false&q=${encodeURIComponent(town)}&pageSize=1`));
    expect(all.itemsCount).toBe(inTown.length);
    const open = await readJson<Page>(await searchOf("packeta", `q=${encodeURIComponent(town)}&pageSize=1`));
    expect(open.itemsCount).toBe(inTown.filter((p) => p.open).length);
  });

  it("counts every match, past a thousand, and answers the last page but refuses the one after it", async () => {
    const all = await readJson<Page>(await searchOf("packeta", "open=false&pageSize=1"));
    expect(PACKETA.length).toBeGreaterThan(1000);
    expect(all).toMatchObject({ itemsCount: PACKETA.length, totalPages: PACKETA.length });
    const last = await readJson<Page>(await searchOf("packeta", `open=false&pageSize=1&page=${PACKETA.length}`));
    expect(last.items).toHaveLength(1);
    const past = await searchOf("packeta", `open=false&pageSize=1&page=${PACKETA.length + 1}`);
    expect(past.status).toBe(400);
    expect((await readJson<Problem>(past)).errors?.map((e) => e.field)).toEqual(["page"]);
  });

  it("names every malformed parameter, and refuses one it does not take", async () => {
    const response = await searchOf("packeta", "near=prague&pageSize=51&cod=yes&weightKg=-1&type=BOX&country=CZE");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = await readJson<Problem>(response);
    expect(problem.errors?.map((e) => e.field).sort()).toEqual(
      ["cod", "country", "near", "pageSize", "type", "weightKg"].sort(),
    );
    const radius = await readJson<Problem>(await searchOf("packeta", "radiusKm=5"));
    expect(radius.errors).toEqual([{ field: "radiusKm", message: "radiusKm needs near" }]);
    const unknown = await searchOf("packeta", "city=Praha");
    expect(unknown.status).toBe(400);
    expect((await readJson<Problem>(unknown)).errors?.map((e) => e.field)).toEqual(["city"]);
  });

  it("answers 404 for an unknown courier and for the sandbox, which keeps no directory", async () => {
    const unknown = await searchOf("dhl");
    expect(unknown.status).toBe(404);
    expect((await readJson<Problem>(unknown)).detail).toBe("Courier not found.");
    const sandbox = await searchOf("sandbox");
    expect(sandbox.status).toBe(404);
    expect((await readJson<Problem>(sandbox)).detail).toContain("keeps no pickup-point directory");
  });

  it("needs the configurations:read permission", async () => {
    const other = await createPartner({ permissions: ["labels:read"] });
    const response = await as(other)(search.GET, "/api/v2/couriers/ppl/pickup-points", {
      params: { courier_id: "ppl" },
    });
    expect(response.status).toBe(403);
  });
});

describe("what a pickup-point request is charged", () => {
  // Buckets refill with the app's clock: stopped, so that RateLimit-Remaining moves by the tokens taken alone.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const remaining = (response: Response) => Number(response.headers.get("ratelimit-remaining"));

  it(`takes ${REQUEST_COSTS.pickupPointSearch} tokens for a search, one for a lookup and one for a search refused before it runs`, async () => {
    const before = remaining(await searchOf("ppl", "q=plzen"));
    const searched = await searchOf("ppl", "q=plzen");
    expect(searched.status).toBe(200);
    expect(before - remaining(searched)).toBe(REQUEST_COSTS.pickupPointSearch);
    const point = PPL.find((p) => p.open)!;
    const looked = await get(`/api/v2/couriers/ppl/pickup-points/${point.id}`, { courier_id: "ppl", id: point.id });
    expect(looked.status).toBe(200);
    expect(remaining(searched) - remaining(looked)).toBe(1);
    const far = await searchOf("ppl", "page=999999999");
    expect(far.status).toBe(400);
    expect((await readJson<Problem>(far)).errors?.map((e) => e.field)).toEqual(["page"]);
    // Known past the matches only once they are counted: charged as the search it ran.
    expect(remaining(looked) - remaining(far)).toBe(REQUEST_COSTS.pickupPointSearch);
    const short = await searchOf("ppl", `q=${encodeURIComponent(Array.from({ length: 50 }, () => "a").join(" "))}`);
    expect(short.status).toBe(400);
    expect((await readJson<Problem>(short)).errors?.map((e) => e.field)).toEqual(["q"]);
    expect(remaining(far) - remaining(short)).toBe(1);
  });
});

describe("GET /couriers/{courier_id}/pickup-points/{id}", () => {
  it("answers a point, closed ones included, and 404 for an unknown one or another courier's", async () => {
    const closed = PACKETA.find((p) => !p.open)!;
    const response = await get(`/api/v2/couriers/packeta/pickup-points/${closed.id}`, {
      courier_id: "packeta",
      id: closed.id,
    });
    expect(response.status).toBe(200);
    expect(await readJson<Point>(response)).toMatchObject({ id: closed.id, open: false, courier: "packeta" });
    const unknown = await get("/api/v2/couriers/packeta/pickup-points/999999999", {
      courier_id: "packeta",
      id: "999999999",
    });
    expect(unknown.status).toBe(404);
    expect((await readJson<Problem>(unknown)).detail).toBe("Pickup point not found.");
    const ppl = PPL.find((p) => !PACKETA.some((q) => q.id === p.id))!;
    const elsewhere = await get(`/api/v2/couriers/packeta/pickup-points/${ppl.id}`, {
      courier_id: "packeta",
      id: ppl.id,
    });
    expect(elsewhere.status).toBe(404);
    const sandbox = await get("/api/v2/couriers/sandbox/pickup-points/1", { courier_id: "sandbox", id: "1" });
    expect(sandbox.status).toBe(404);
  });
});
