import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { insertDirectoryPoints } from "@/test/pickup-points";
import { callerFor, failure, suiteUsers } from "@/test/trpc";

const PLZEN = { lat: 49.7384, lon: 13.3736 };

describe("tRPC pickupPoints.search", () => {
  const users = suiteUsers();
  beforeAll(async () => {
    await insertDirectoryPoints(await getDb(), syntheticPoints({ courier: "ppl", count: 2000 }));
  });

  it("answers a member of the account with the points nearest a place, and the text search ignoring accents", async () => {
    const api = await callerFor(users.member);
    const near = await api.pickupPoints.search({ accountId: users.owner.accountId, courier: "ppl", near: PLZEN });
    expect(near.items.length).toBeGreaterThan(0);
    const distances = near.items.map((p) => p.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    const text = await api.pickupPoints.search({ accountId: users.owner.accountId, courier: "ppl", q: "plzen" });
    expect(text.items.length).toBeGreaterThan(0);
    for (const point of text.items) expect(point.city).toBe("Plzeň");
  });

  it("passes the filters on: COD only, a weight, lockers only", async () => {
    const api = await callerFor(users.owner);
    const page = await api.pickupPoints.search({
      accountId: users.owner.accountId,
      courier: "ppl",
      cod: true,
      weightKg: 10,
      type: "LOCKER",
      pageSize: 50,
    });
    for (const point of page.items) {
      expect(point).toMatchObject({ cod: true, type: "LOCKER" });
      if (point.maxWeightKg !== null) expect(point.maxWeightKg).toBeGreaterThanOrEqual(10);
    }
  });

  it("answers NOT_FOUND for an account the user is not a member of, UNAUTHORIZED signed out", async () => {
    const stranger = await callerFor(users.stranger);
    expect(
      (await failure(stranger.pickupPoints.search({ accountId: users.owner.accountId, courier: "ppl" }))).code,
    ).toBe("NOT_FOUND");
    const nobody = await callerFor(null);
    expect((await failure(nobody.pickupPoints.search({ accountId: users.owner.accountId, courier: "ppl" }))).code).toBe(
      "UNAUTHORIZED",
    );
  });

  it("refuses input out of range, naming the field", async () => {
    const api = await callerFor(users.owner);
    const error = await failure(
      api.pickupPoints.search({ accountId: users.owner.accountId, courier: "ppl", near: PLZEN, radiusKm: 500 }),
    );
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toContain("radiusKm must be at most 100");
    const page = await failure(
      api.pickupPoints.search({ accountId: users.owner.accountId, courier: "ppl", pageSize: 51 }),
    );
    expect(page.code).toBe("BAD_REQUEST");
  });
});
