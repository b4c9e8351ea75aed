import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as endpoints from "@/app/api/v2/private/webhook-endpoints/route";
import * as endpoint from "@/app/api/v2/private/webhook-endpoints/[id]/route";
import { WEBHOOK_ACTION_LIMITS } from "@/server/services/rate-limits/throttle-webhook-action";
import { call, createTestUser, readJson } from "@/test/helpers";

// Targets on loopback are allowed here (the URL checks have tests of their own, under production rules).
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

// The bucket refills with the app's clock (`Date`): frozen, so a slow machine's requests are the burst they are.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date());
});
afterEach(() => {
  vi.useRealTimers();
});

describe("changes to webhook endpoints of one account", () => {
  it(`are at most ${WEBHOOK_ACTION_LIMITS.update.perMinute} a minute, like creates (429 with Retry-After), and a refused one changes nothing`, async () => {
    const user = await createTestUser();
    const created = await call(endpoints.POST, "/api/v2/private/webhook-endpoints", {
      token: user.token,
      body: { url: "http://127.0.0.1:4009/hooks" },
    });
    const { id } = await readJson<{ id: string }>(created);
    const patch = (i: number) =>
      call(endpoint.PATCH, `/api/v2/private/webhook-endpoints/${id}`, {
        method: "PATCH",
        token: user.token,
        params: { id },
        body: { url: `http://127.0.0.1:4009/hooks/${i}` },
      });
    for (let i = 0; i < WEBHOOK_ACTION_LIMITS.update.perMinute; i++) expect((await patch(i)).status).toBe(200);
    const refused = await patch(999);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect((await readJson<{ detail: string }>(refused)).detail).toMatch(
      /Too many webhook endpoint changes for this account: retry in \d+ s/,
    );
    const list = await call(endpoints.GET, "/api/v2/private/webhook-endpoints", { token: user.token });
    const [stored] = (await readJson<{ items: { url: string }[] }>(list)).items;
    expect(stored!.url).toBe(`http://127.0.0.1:4009/hooks/${WEBHOOK_ACTION_LIMITS.update.perMinute - 1}`);
  });
});
