import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as resend from "@/app/api/v2/private/webhook-deliveries/[id]/resend/route";
import * as endpoints from "@/app/api/v2/private/webhook-endpoints/route";
import * as endpoint from "@/app/api/v2/private/webhook-endpoints/[id]/route";
import * as deliveries from "@/app/api/v2/private/webhook-endpoints/[id]/deliveries/route";
import * as testPing from "@/app/api/v2/private/webhook-endpoints/[id]/test/route";
import { WEBHOOK_ACTION_LIMITS } from "@/server/services/rate-limits/throttle-webhook-action";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { MAX_WEBHOOK_ENDPOINTS } from "./create-webhook-endpoint";

// Targets on loopback are allowed here (the URL checks have tests of their own, under production rules).
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

const URL = "http://127.0.0.1:4009/hooks";

let owner: TestUser;
beforeAll(async () => {
  owner = await createTestUser();
});

// Every limit here is a bucket refilling with the app's clock (`Date`): frozen in each test, so a slow machine's
// requests are counted as the burst they are instead of partly refilled (CI once let a 61st resend through).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date());
});
afterEach(() => {
  vi.useRealTimers();
});

const createEndpoint = (user: TestUser) =>
  call(endpoints.POST, "/api/v2/private/webhook-endpoints", { token: user.token, body: { url: URL } });
const deleteEndpoint = (user: TestUser, id: string) =>
  call(endpoint.DELETE, `/api/v2/private/webhook-endpoints/${id}`, {
    method: "DELETE",
    token: user.token,
    params: { id },
  });

async function expectThrottled(response: Response, what: RegExp) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  expect((await readJson<{ detail: string }>(response)).detail).toMatch(what);
}

describe("webhook endpoints of one account", () => {
  it(`are at most ${MAX_WEBHOOK_ENDPOINTS}: one more is a 409 that says so, and nothing is stored`, async () => {
    const user = await createTestUser();
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      const created = await createEndpoint(user);
      expect(created.status).toBe(201);
      ids.push((await readJson<{ id: string }>(created)).id);
    }
    const refused = await createEndpoint(user);
    expect(refused.status).toBe(409);
    expect((await readJson<{ detail: string }>(refused)).detail).toContain(`at most ${MAX_WEBHOOK_ENDPOINTS}`);
    const list = await call(endpoints.GET, "/api/v2/private/webhook-endpoints?pageSize=50", { token: user.token });
    expect((await readJson<{ items: unknown[] }>(list)).items).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    // Deleting one makes room again.
    expect((await deleteEndpoint(user, ids[0]!)).status).toBe(204);
    expect((await createEndpoint(user)).status).toBe(201);
  });

  it(`are created at most ${WEBHOOK_ACTION_LIMITS.create.perMinute} a minute (429 with Retry-After)`, async () => {
    for (let i = 0; i < WEBHOOK_ACTION_LIMITS.create.perMinute; i++) {
      const created = await createEndpoint(owner);
      expect(created.status).toBe(201);
      expect((await deleteEndpoint(owner, (await readJson<{ id: string }>(created)).id)).status).toBe(204);
    }
    await expectThrottled(
      await createEndpoint(owner),
      /Too many webhook endpoints created for this account: retry in \d+ s/,
    );
  });
});

describe("test events and resends of one account", () => {
  it(`send at most ${WEBHOOK_ACTION_LIMITS.test.perMinute} test events and resend at most ${WEBHOOK_ACTION_LIMITS.resend.perMinute} deliveries a minute`, async () => {
    const user = await createTestUser();
    const created = await createEndpoint(user);
    const { id } = await readJson<{ id: string }>(created);
    const ping = () =>
      call(testPing.POST, `/api/v2/private/webhook-endpoints/${id}/test`, {
        method: "POST",
        token: user.token,
        params: { id },
      });
    for (let i = 0; i < WEBHOOK_ACTION_LIMITS.test.perMinute; i++) expect((await ping()).status).toBe(202);
    await expectThrottled(await ping(), /Too many test events sent/);

    const page = await call(deliveries.GET, `/api/v2/private/webhook-endpoints/${id}/deliveries`, {
      token: user.token,
      params: { id },
    });
    const [delivery] = (await readJson<{ items: { id: string }[] }>(page)).items;
    const again = () =>
      call(resend.POST, `/api/v2/private/webhook-deliveries/${delivery!.id}/resend`, {
        method: "POST",
        token: user.token,
        params: { id: delivery!.id },
      });
    for (let i = 0; i < WEBHOOK_ACTION_LIMITS.resend.perMinute; i++) expect((await again()).status).toBe(202);
    await expectThrottled(await again(), /Too many deliveries resent/);
  });
});
