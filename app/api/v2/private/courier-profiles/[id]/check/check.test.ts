import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import {
  CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE,
  CHECKS_PER_PROFILE_PER_MINUTE,
} from "@/server/services/courier-profiles/check-courier-profile";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import * as collection from "../../route";
import * as check from "./route";

const createProfile = async (user: TestUser, name: string) =>
  readJson<{ id: string }>(
    await call(collection.POST, "/api/v2/private/courier-profiles", {
      token: user.token,
      body: { accountId: user.accountId, courier: "sandbox", name },
    }),
  );
const createPacketaProfile = async (user: TestUser, name: string) =>
  readJson<{ id: string }>(
    await call(collection.POST, "/api/v2/private/courier-profiles", {
      token: user.token,
      // A password Packeta refuses: each check is a refused login at the courier.
      body: {
        accountId: user.accountId,
        courier: "packeta",
        name,
        settings: { apiPassword: "f".repeat(32), sender: "shop" },
      },
    }),
  );
const checkProfile = (user: TestUser, id: string) =>
  call(check.POST, `/api/v2/private/courier-profiles/${id}/check`, { token: user.token, params: { id } });

// The limit is a bucket refilling with the app's clock (`Date`): frozen, so a slow machine's checks count as a burst.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date());
});
afterEach(() => {
  vi.useRealTimers();
});

describe("POST /private/courier-profiles/{id}/check: limited per profile", () => {
  it(`answers ${CHECKS_PER_PROFILE_PER_MINUTE} checks of a profile a minute, then 429 with Retry-After; other profiles are not held`, async () => {
    const owner = await createTestUser();
    const profile = await createProfile(owner, "Checked");
    const other = await createProfile(owner, "Other");
    for (let i = 0; i < CHECKS_PER_PROFILE_PER_MINUTE; i++) {
      const answer = await checkProfile(owner, profile.id);
      expect(answer.status, `check ${i + 1}`).toBe(200);
      expect(await readJson(answer)).toEqual({ ok: true });
    }
    const refused = await checkProfile(owner, profile.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await checkProfile(owner, other.id)).status).toBe(200);
    // The bucket refills: after 10 s (6 a minute) one more check is answered.
    vi.setSystemTime(Date.now() + 10_000);
    expect((await checkProfile(owner, profile.id)).status).toBe(200);
  });
});

describe("POST /private/courier-profiles/{id}/check: limited per account and courier", () => {
  let packeta: Awaited<ReturnType<typeof startFakePacketa>>;
  beforeAll(async () => {
    packeta = await startFakePacketa({ password: "p".repeat(32) });
    process.env.COURIER_PACKETA_URL = packeta.url;
  });
  afterAll(async () => {
    await packeta.close();
  });

  it(`answers ${CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE} checks of an account's profiles of one courier a minute, whichever profile and member; the next is refused without a call to the courier`, async () => {
    const owner = await createTestUser();
    const member = await createTestUser({ accountId: owner.accountId, role: "member" });
    const perProfile = Math.ceil(CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE / CHECKS_PER_PROFILE_PER_MINUTE);
    const profiles = [];
    for (let i = 0; i <= perProfile; i++) profiles.push(await createPacketaProfile(owner, `Packeta ${i}`));
    const calls = packeta.requests.length;
    for (let i = 0; i < CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE; i++) {
      const answer = await checkProfile(i % 2 ? member : owner, profiles[i % perProfile]!.id);
      expect(answer.status, `check ${i + 1}`).toBe(200);
      expect(await readJson(answer)).toMatchObject({ ok: false, code: "COURIER_AUTH_FAILED" });
    }
    expect(packeta.requests.length - calls).toBe(CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE);
    // A profile not checked yet, by either member: still the same account's logins at Packeta.
    for (const user of [owner, member]) {
      const refused = await checkProfile(user, profiles[perProfile]!.id);
      expect(refused.status).toBe(429);
      expect((await readJson<{ detail: string }>(refused)).detail).toContain("the account's packeta profiles");
    }
    expect(packeta.requests.length - calls).toBe(CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE);
    // Another account's checks are its own.
    const other = await createTestUser();
    expect((await checkProfile(other, (await createPacketaProfile(other, "Packeta")).id)).status).toBe(200);
  });
});
