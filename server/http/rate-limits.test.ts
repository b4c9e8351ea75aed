import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as couriers from "@/app/api/v2/couriers/route";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import * as token from "@/app/api/v2/auth/token/route";
import { call, createTestUser } from "@/test/helpers";
import { as, createPartner, order } from "@/test/partner";

// Buckets refill with the app's clock: stopped here, so the counts hold however long each request takes.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("rate limits per API key", () => {
  it("carries RateLimit-* headers and answers 429 with Retry-After past the limit", async () => {
    const partner = await createPartner({ rateLimitPerMinute: 3 });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await as(partner)(couriers.GET, "/api/v2/couriers");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
      expect(Number(response.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
      remaining.push(response.headers.get("ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const limited = await as(partner)(couriers.GET, "/api/v2/couriers");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
  });

  it("gives a token back every 60/limit seconds", async () => {
    const partner = await createPartner({ rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await as(partner)(couriers.GET, "/api/v2/couriers")).status).toBe(200);
    const limited = await as(partner)(couriers.GET, "/api/v2/couriers");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("20");
    vi.setSystemTime(Date.now() + 19_000);
    expect((await as(partner)(couriers.GET, "/api/v2/couriers")).status).toBe(429);
    vi.setSystemTime(Date.now() + 1_000);
    const refilled = await as(partner)(couriers.GET, "/api/v2/couriers");
    expect(refilled.status).toBe(200);
    expect(refilled.headers.get("ratelimit-remaining")).toBe("0");
    expect((await as(partner)(couriers.GET, "/api/v2/couriers")).status).toBe(429);
  });

  it("counts each order of a batch, and refuses a batch larger than what is left", async () => {
    const partner = await createPartner({ rateLimitPerMinute: 4 });
    const batch = (n: number) => Array.from({ length: n }, () => order());
    const post = (n: number) =>
      as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body: batch(n),
        params: { courier_id: "sandbox" },
      });
    const first = await post(3);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    expect((await post(2)).status).toBe(429);
  });

  it("counts each order of a validate batch too: 500 orders are 500 requests", async () => {
    const partner = await createPartner({ rateLimitPerMinute: 600 });
    const post = (n: number) =>
      as(partner)(validate.POST, "/api/v2/couriers/sandbox/shipping-orders/validate", {
        body: Array.from({ length: n }, () => order()),
        params: { courier_id: "sandbox" },
      });
    const first = await post(500);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("100");
    const refused = await post(101);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The refused batch spent the one request the key check counts, as on create.
    expect((await post(99)).status).toBe(200);
  });

  it("puts headers on error answers too", async () => {
    const partner = await createPartner({ permissions: ["shipping-orders:read"] });
    const forbidden = await as(partner)(couriers.GET, "/api/v2/couriers");
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("ratelimit-limit")).toBe("600");
  });
});

describe("sign-in throttling", () => {
  it("answers 429 after 10 attempts a minute for one email", async () => {
    const user = await createTestUser();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await call(token.POST, "/api/v2/auth/token", { body: { email: user.email, password: "wrong" } });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const right = await call(token.POST, "/api/v2/auth/token", {
      body: { email: user.email, password: user.password },
    });
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toBeTruthy();
  });
});
