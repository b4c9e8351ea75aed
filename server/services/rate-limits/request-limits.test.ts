import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as couriers from "@/app/api/v2/couriers/route";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as events from "@/app/api/v2/events/route";
import * as labels from "@/app/api/v2/labels/route";
import * as statistics from "@/app/api/v2/statistics/route";
import { getDb, rowsOf } from "@/db/client";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createTRPCContext } from "@/server/trpc/init";
import { trpcResponseMeta } from "@/server/trpc/response-meta";
import { appRouter } from "@/server/trpc/root";
import { call, readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { codeOf, callerFor, sessionOf } from "@/test/trpc";

// Small ceilings, set before the environment is first read in this process (each test file has its own).
vi.hoisted(() => {
  process.env.ACCOUNT_RATE_LIMIT_PER_MINUTE = "5";
  process.env.USER_RATE_LIMIT_PER_MINUTE = "4";
});

// Buckets refill with the app's clock: stopped here, and moved a minute on to fill them again.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
});
afterEach(() => {
  vi.useRealTimers();
});
const aMinuteLater = () => vi.setSystemTime(Date.now() + 60_000);

const tokensOf = async (subject: string) =>
  rowsOf<{ tokens: number }>(
    await (await getDb()).execute(sql`select tokens from rate_limit_buckets where subject = ${subject}`),
  )[0]?.tokens;

describe("the account's ceiling over all of its keys", () => {
  it("refuses the account's keys together past ACCOUNT_RATE_LIMIT_PER_MINUTE, whatever each key allows", async () => {
    const partner = await createPartner({ rateLimitPerMinute: 100_000 });
    const second = await createApiKey(
      await getDb(),
      { userId: partner.userId, isStaff: false },
      { accountId: partner.accountId, name: "second", rateLimitPerMinute: 100_000 },
    );
    const keys = [partner.key, second.key];
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await call(couriers.GET, "/api/v2/couriers", { apiKey: keys[i % 2] });
      expect(response.status).toBe(200);
      remaining.push(response.headers.get("ratelimit-remaining")!);
    }
    // The headers tell the bucket the client meets first: the account's.
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const before = await tokensOf(`key:${second.id}`);
    const refused = await call(couriers.GET, "/api/v2/couriers", { apiKey: second.key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(refused.headers.get("retry-after")).toBe("12");
    expect(refused.headers.get("ratelimit-limit")).toBe("5");
    expect((await readJson<{ detail: string }>(refused)).detail).toMatch(/account/);
    // A refused request takes nothing from the key either.
    expect(await tokensOf(`key:${second.id}`)).toBe(before);
    // Another account is not touched.
    const other = await createPartner();
    expect((await as(other)(couriers.GET, "/api/v2/couriers")).status).toBe(200);
  });
});

describe("expensive operations weigh more than one request", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await createPartner({ rateLimitPerMinute: 100_000 });
  });

  it("counts each label of GET /labels", async () => {
    const created = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: [order(), order()],
      params: { courier_id: "sandbox" },
    });
    const { items } = await readJson<{ items: { shippingNumber: string[] }[] }>(created);
    aMinuteLater();
    const numbers = items.flatMap((i) => i.shippingNumber).join(",");
    const response = await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=${numbers}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-remaining")).toBe("3");
  });

  it("counts a statistics question by the days it spans", async () => {
    const year = await as(partner)(statistics.GET, "/api/v2/statistics?from=2025-01-01&to=2025-12-31");
    expect(year.status).toBe(429);
    expect(Number(year.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const month = await as(partner)(statistics.GET, "/api/v2/statistics?from=2026-01-01&to=2026-02-01");
    expect(month.status).toBe(200);
    // The refused year took one request (the key check's), the 32 days two more.
    expect(month.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("counts a feed read by the events it asks for", async () => {
    const page = await as(partner)(events.GET, "/api/v2/events?limit=100");
    expect(page.status).toBe(200);
    expect(page.headers.get("ratelimit-remaining")).toBe("1");
  });
});

describe("the dashboard's expensive calls, per signed-in user", () => {
  it("counts validate by its orders against USER_RATE_LIMIT_PER_MINUTE", async () => {
    const partner = await createPartner();
    const api = await callerFor(partner);
    const validate = (n: number) =>
      api.shippingOrders.validate({
        accountId: partner.accountId,
        courierId: "sandbox",
        body: Array.from({ length: n }, () => order()),
      });
    expect(await codeOf(validate(3))).toBe("resolved");
    expect(await codeOf(validate(2))).toBe("TOO_MANY_REQUESTS");
    expect(await codeOf(validate(1))).toBe("resolved");
    expect(await codeOf(validate(1))).toBe("TOO_MANY_REQUESTS");
    // Another user of the same kind has a bucket of their own.
    const other = await createPartner();
    expect(await codeOf((await callerFor(other)).statistics.get({ accountId: other.accountId }))).toBe("resolved");
  });

  it("answers 429 with Retry-After over HTTP", async () => {
    const partner = await createPartner();
    const post = () =>
      fetchRequestHandler({
        endpoint: "/api/trpc",
        req: new Request("http://localhost/api/trpc/shippingOrders.validate", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            json: { accountId: partner.accountId, courierId: "sandbox", body: [order(), order(), order(), order()] },
          }),
        }),
        router: appRouter,
        createContext: () => createTRPCContext({ session: sessionOf(partner), headers: new Headers() }),
        responseMeta: trpcResponseMeta,
      });
    expect((await post()).status).toBe(200);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
  });
});
