import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { packetaCarriers, pickupPoints, pickupPointSyncs } from "@/db/schema/pickup-points";
import { startFakePacketaFeed, type FakePacketaFeed } from "@/server/couriers/packeta/fake-feed-server";
import { accessPointModel, accessPointSchemaErrors } from "@/server/couriers/ppl/fake-access-points";
import { startFakePpl, type FakePpl } from "@/server/couriers/ppl/fake-server";
import { normalizeSearchText } from "@/server/pickup-points/search-text";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { ownDatabase } from "@/test/own-database";
import type { DirectoryConfig } from "./feeds";
import { syncFeed } from "./sync-feed";

const KEY = "0123456789abcdef";
const COUNT = 2500;
const PPL_COUNT = 2300;
const today = () => new Date().toISOString().slice(0, 10);

let db: Db;
let close: () => Promise<void>;
let packeta: FakePacketaFeed;
let ppl: FakePpl;
let config: DirectoryConfig;

const synthetic = [...syntheticPoints({ courier: "packeta", count: COUNT, seed: 7 })];
const pplSynthetic = [...syntheticPoints({ courier: "ppl", count: PPL_COUNT, seed: 7 })];

beforeAll(async () => {
  ({ db, close } = await ownDatabase());
  packeta = await startFakePacketaFeed({ apiKey: KEY, count: COUNT, seed: 7 });
  ppl = await startFakePpl({
    clientId: "dir-client",
    clientSecret: "dir-secret",
    accessPoints: { count: PPL_COUNT, seed: 7 },
  });
  config = {
    packeta: { apiKey: KEY, feedUrl: packeta.url },
    ppl: { clientId: "dir-client", clientSecret: "dir-secret", baseUrl: ppl.url },
  };
});
afterAll(async () => {
  await packeta?.close();
  await ppl?.close();
  await close?.();
});

const rows = (courier: string) =>
  db.select().from(pickupPoints).where(eq(pickupPoints.courier, courier)).orderBy(pickupPoints.id);
const syncState = async (feed: string) =>
  (await db.select().from(pickupPointSyncs).where(eq(pickupPointSyncs.feed, feed)))[0];

describe("Packeta's directory sync", () => {
  it("fills the directory from the branch and box feeds, as the synthetic directory has it", async () => {
    const points = await syncFeed(db, "packeta-points", config);
    const boxes = await syncFeed(db, "packeta-boxes", config);
    const lockers = synthetic.filter((p) => p.type === "LOCKER").length;
    expect(points).toMatchObject({ outcome: "synced", listed: COUNT - lockers, changed: COUNT - lockers, closed: 0 });
    expect(boxes).toMatchObject({ outcome: "synced", listed: lockers, changed: lockers });
    const stored = await rows("packeta");
    expect(stored).toHaveLength(COUNT);
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const point of synthetic) {
      const row = byId.get(point.id)!;
      expect(row, point.id).toMatchObject({
        type: point.type,
        network: point.network,
        name: point.name,
        street: point.street,
        city: point.city,
        zip: point.zip,
        country: point.country,
        openingHours: point.openingHours,
        cod: point.cod,
        cardPayment: point.cardPayment,
        maxWeightKg: point.maxWeightKg,
        maxSizeCm: null,
        open: point.open,
        closedSince: point.open ? null : today(),
        searchText: normalizeSearchText(point.name, point.street, point.city, point.zip),
      });
      expect(row.latitude).toBeCloseTo(point.latitude, 4);
    }
    expect(await syncState("packeta-points")).toMatchObject({
      courier: "packeta",
      lastCount: COUNT - lockers,
      // Its scope's open points, counted once by the sync for GET /couriers.
      lastOpenCount: synthetic.filter((p) => p.type === "POINT" && p.open).length,
      lastError: null,
    });
    expect((await syncState("packeta-boxes"))?.lastOpenCount).toBe(
      synthetic.filter((p) => p.type === "LOCKER" && p.open).length,
    );
    // The key is in the URL's path: what the fake saw is logged by path only, and the sync asked the documented form.
    expect(packeta.requests.map((r) => r.path)).toEqual(["/v5/{key}/branch.json", "/v5/{key}/box.json"]);
  });

  it("rewrites only the rows that changed, and closes a point that left the feed (kept, closedSince today)", async () => {
    const before = new Map((await rows("packeta")).map((r) => [r.id, r]));
    const renamed = synthetic.find((p) => p.type === "POINT" && p.open)!;
    const gone = synthetic.filter((p) => p.type === "POINT" && p.open)[1]!;
    packeta.setTransform((p) =>
      p.id === gone.id ? null : p.id === renamed.id ? { ...p, name: `${p.name} (renamed)` } : p,
    );
    const result = await syncFeed(db, "packeta-points", config);
    expect(result).toMatchObject({ outcome: "synced", changed: 1, closed: 1 });
    expect((await syncState("packeta-points"))?.lastOpenCount).toBe(
      synthetic.filter((p) => p.type === "POINT" && p.open).length - 1,
    );
    const after = new Map((await rows("packeta")).map((r) => [r.id, r]));
    expect(after.get(renamed.id)).toMatchObject({ name: `${renamed.name} (renamed)`, open: true });
    expect(after.get(renamed.id)!.updatedAt.getTime()).toBeGreaterThan(before.get(renamed.id)!.updatedAt.getTime());
    expect(after.get(gone.id)).toMatchObject({ open: false, closedSince: today() });
    for (const [id, row] of after) {
      if (id === renamed.id || id === gone.id) continue;
      expect(row.updatedAt, id).toEqual(before.get(id)!.updatedAt);
      expect(row.feedHash, id).toBe(before.get(id)!.feedHash);
    }
    // The boxes' feed owns the lockers only: none of them was closed by the points' sync.
    expect([...after.values()].filter((r) => r.type === "LOCKER" && r.open).length).toBe(
      synthetic.filter((p) => p.type === "LOCKER" && p.open).length,
    );
    // Back in the feed: open again.
    packeta.setTransform(null);
    expect(await syncFeed(db, "packeta-points", config)).toMatchObject({ outcome: "synced", changed: 2, closed: 0 });
    expect((await rows("packeta")).find((r) => r.id === gone.id)).toMatchObject({ open: true, closedSince: null });
  });

  for (const fault of [{ kind: "malformed", after: 700 }, { kind: "cut", after: 700 }, { kind: "500" }] as const) {
    it(`keeps the directory when the feed fails (${fault.kind}), and records the error`, async () => {
      const before = await syncState("packeta-points");
      const gone = synthetic.filter((p) => p.type === "POINT" && p.open).at(-1)!;
      packeta.setTransform((p) => (p.id === gone.id ? null : p));
      packeta.setFault(fault);
      try {
        const result = await syncFeed(db, "packeta-points", config);
        expect(result).toMatchObject({ outcome: "failed" });
      } finally {
        packeta.setFault({ kind: "none" });
        packeta.setTransform(null);
      }
      const after = await syncState("packeta-points");
      expect(after!.lastSuccessAt).toEqual(before!.lastSuccessAt);
      expect(after!.lastError).toMatch(/Packeta's branch feed|not valid JSON|broke off/);
      expect(after!.lastError).not.toContain(KEY);
      expect(after!.lastErrorAt).not.toBeNull();
      // Nothing closed: the point missing from the broken feed is still open.
      expect((await rows("packeta")).find((r) => r.id === gone.id)).toMatchObject({ open: true });
      expect(await db.$count(pickupPoints, and(eq(pickupPoints.courier, "packeta"), eq(pickupPoints.open, true)))).toBe(
        synthetic.filter((p) => p.open).length,
      );
    });
  }

  it("records a refused key without it in the message", async () => {
    const result = await syncFeed(db, "packeta-points", {
      packeta: { apiKey: "fedcba9876543210", feedUrl: packeta.url },
    });
    expect(result).toMatchObject({
      outcome: "failed",
      error: "Packeta's branch feed: the API key was refused (HTTP 401)",
    });
    expect((await syncState("packeta-points"))!.lastError).toBe(
      "Packeta's branch feed: the API key was refused (HTTP 401)",
    );
  });

  it("syncs the carriers' feed", async () => {
    expect(await syncFeed(db, "packeta-carriers", config)).toMatchObject({ outcome: "synced", listed: 6 });
    expect((await db.select().from(packetaCarriers).where(eq(packetaCarriers.id, "106")))[0]).toMatchObject({
      country: "CZ",
      requiresPhone: true,
      disallowsCod: false,
      maxWeightKg: 30,
      available: true,
    });
  });

  it("does nothing without credentials", async () => {
    expect(await syncFeed(db, "packeta-points", {})).toEqual({ outcome: "not-configured" });
  });
});

describe("PPL's directory sync", () => {
  it("serves access points that PPL's own schema accepts", () => {
    for (const point of pplSynthetic.slice(0, 200)) expect(accessPointSchemaErrors(accessPointModel(point))).toBeNull();
  });

  it("pages through /accessPoint and stores the open points with coordinates", async () => {
    const result = await syncFeed(db, "ppl-access-points", config);
    const listed = pplSynthetic.filter((p) => p.open);
    const withGps = listed.filter((p) => Number(p.id.replace(/\D/g, "")) % 97 !== 0);
    expect(result).toMatchObject({
      outcome: "synced",
      listed: withGps.length,
      skipped: listed.length - withGps.length,
    });
    const paged = ppl.requests.filter((r) => r.path === "/accessPoint").map((r) => r.query.Offset?.[0]);
    expect(paged).toEqual(["0", "1000", "2000"]);
    const stored = new Map((await rows("ppl")).map((r) => [r.id, r]));
    expect(stored.size).toBe(withGps.length);
    for (const point of withGps)
      expect(stored.get(point.id), point.id).toMatchObject({
        type: point.type,
        network: point.network,
        country: point.country,
        openingHours: point.openingHours,
        maxSizeCm: point.maxSizeCm,
        open: true,
      });
  });

  it("refuses a page without Limit with PPL's problem, and a call without a token", async () => {
    const noLimit = await fetch(`${ppl.url}/accessPoint?Offset=0`, { headers: { authorization: "Bearer nope" } });
    expect(noLimit.status).toBe(401);
    const token = await (
      await fetch(`${ppl.url}/login/getAccessToken`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_id=dir-client&client_secret=dir-secret&scope=myapi2",
      })
    ).json();
    const auth = { authorization: `Bearer ${(token as { access_token: string }).access_token}` };
    const missing = await fetch(`${ppl.url}/accessPoint?Offset=0`, { headers: auth });
    expect(missing.status).toBe(400);
    expect(missing.headers.get("content-type")).toContain("application/problem+json");
    expect(((await missing.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty("Limit");
    const one = await fetch(
      `${ppl.url}/accessPoint?Limit=5&Offset=0&CountryCode=SK&AccessPointTypes=ParcelBox&AccessPointTypes=AlzaBox`,
      { headers: auth },
    );
    const items = (await one.json()) as { country: string; accessPointType: string }[];
    expect(one.headers.get("x-paging-limit")).toBe("5");
    expect(Number(one.headers.get("x-paging-total-items-count"))).toBeGreaterThanOrEqual(items.length);
    for (const item of items) {
      expect(item.country).toBe("SK");
      expect(["ParcelBox", "AlzaBox"]).toContain(item.accessPointType);
    }
  });

  it("keeps the directory when a page is cut half-way, and records the error", async () => {
    const before = await syncState("ppl-access-points");
    const count = await db.$count(pickupPoints, and(eq(pickupPoints.courier, "ppl"), eq(pickupPoints.open, true)));
    ppl.accessPoints.setTransform((p) => (p.id === pplSynthetic[0]!.id ? null : p));
    ppl.accessPoints.setFault({ kind: "cut", after: 1500 });
    try {
      expect(await syncFeed(db, "ppl-access-points", config)).toMatchObject({ outcome: "failed" });
    } finally {
      ppl.accessPoints.setFault({ kind: "none" });
      ppl.accessPoints.setTransform(null);
    }
    const after = await syncState("ppl-access-points");
    expect(after!.lastSuccessAt).toEqual(before!.lastSuccessAt);
    expect(after!.lastError).toMatch(/offset 1000/);
    expect(await db.$count(pickupPoints, and(eq(pickupPoints.courier, "ppl"), eq(pickupPoints.open, true)))).toBe(
      count,
    );
  });

  it("records refused client credentials", async () => {
    const result = await syncFeed(db, "ppl-access-points", { ppl: { ...config.ppl!, clientSecret: "wrong" } });
    expect(result).toMatchObject({ outcome: "failed", error: expect.stringMatching(/credentials were refused/) });
    expect(await db.execute(sql`select 1`)).toBeTruthy();
  });
});
