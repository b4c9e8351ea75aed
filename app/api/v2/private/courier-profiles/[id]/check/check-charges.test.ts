import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { CHECKS_PER_PROFILE_PER_MINUTE } from "@/server/services/courier-profiles/check-courier-profile";
import { REQUEST_COSTS } from "@/server/services/rate-limits/request-costs";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { callerFor, codeOf } from "@/test/trpc";
import * as collection from "../../route";
import * as check from "./route";

// Ceilings of two and three checks (each counts REQUEST_COSTS.courierCheck), set before the environment is first read
// in this process (each test file has its own).
vi.hoisted(() => {
  process.env.USER_RATE_LIMIT_PER_MINUTE = "20";
  process.env.ACCOUNT_RATE_LIMIT_PER_MINUTE = "30";
});

let packeta: Awaited<ReturnType<typeof startFakePacketa>>;
beforeAll(async () => {
  packeta = await startFakePacketa({ password: "p".repeat(32) });
  process.env.COURIER_PACKETA_URL = packeta.url;
});
afterAll(async () => {
  await packeta.close();
});
// The buckets refill with the app's clock (`Date`): frozen, so a slow machine's checks count as a burst.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
});
afterEach(() => {
  vi.useRealTimers();
});

const createPacketaProfile = async (user: TestUser, name: string) =>
  readJson<{ id: string }>(
    await call(collection.POST, "/api/v2/private/courier-profiles", {
      token: user.token,
      body: {
        accountId: user.accountId,
        courier: "packeta",
        name,
        settings: { apiPassword: "f".repeat(32), sender: "shop" },
      },
    }),
  );
const restCheck = (user: TestUser, id: string) =>
  call(check.POST, `/api/v2/private/courier-profiles/${id}/check`, { token: user.token, params: { id } });
const tokensOf = async (subject: string) =>
  rowsOf<{ tokens: number }>(
    await (await getDb()).execute(sql`select tokens from rate_limit_buckets where subject = ${subject}`),
  )[0]?.tokens;

describe("a courier check counts against the user's limit and the account's ceiling, on both doors", () => {
  it("refuses a user's third check across profiles (REST), before the courier is asked and taking nothing", async () => {
    expect(REQUEST_COSTS.courierCheck).toBe(10);
    const owner = await createTestUser();
    const profiles = [];
    for (const name of ["A", "B", "C"]) profiles.push(await createPacketaProfile(owner, name));
    const calls = packeta.requests.length;
    expect((await restCheck(owner, profiles[0]!.id)).status).toBe(200);
    expect((await restCheck(owner, profiles[1]!.id)).status).toBe(200);
    const refused = await restCheck(owner, profiles[2]!.id);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(packeta.requests.length - calls).toBe(2);
    // The refused check took nothing from its profile's bucket.
    expect(await tokensOf(`courier-check:${profiles[2]!.id}`)).toBe(CHECKS_PER_PROFILE_PER_MINUTE);
  });

  it("shares the account's ceiling between its members and the dashboard's and the API's checks", async () => {
    const owner = await createTestUser();
    const member = await createTestUser({ accountId: owner.accountId, role: "member" });
    const profiles = [];
    for (const name of ["A", "B", "C", "D"]) profiles.push(await createPacketaProfile(owner, name));
    const dashboard = await callerFor(member);
    const calls = packeta.requests.length;
    expect((await restCheck(owner, profiles[0]!.id)).status).toBe(200);
    expect((await restCheck(owner, profiles[1]!.id)).status).toBe(200);
    expect(await codeOf(dashboard.courierProfiles.check({ id: profiles[2]!.id }))).toBe("resolved");
    // The member has one check of their own left, but the account has none.
    expect(await codeOf(dashboard.courierProfiles.check({ id: profiles[3]!.id }))).toBe("TOO_MANY_REQUESTS");
    const refused = await restCheck(member, profiles[3]!.id);
    expect(refused.status).toBe(429);
    expect((await readJson<{ detail: string }>(refused)).detail).toContain("account's rate limit");
    expect(packeta.requests.length - calls).toBe(3);
    // Another account's ceiling is its own.
    const other = await createTestUser();
    expect((await restCheck(other, (await createPacketaProfile(other, "A")).id)).status).toBe(200);
  });
});
