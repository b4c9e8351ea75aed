import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHECKS_PER_PROFILE_PER_MINUTE } from "@/server/services/courier-profiles/check-courier-profile";
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
