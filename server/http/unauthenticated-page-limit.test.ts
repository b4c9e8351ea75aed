import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  PAGE_COUNTED_HEADER,
  unauthenticatedPageLimiter,
  withUnauthenticatedPageLimit,
} from "./unauthenticated-page-limit";

describe("the unauthenticated page limiter", () => {
  it("counts an IPv6 client per /64 and forgets the address seen longest ago past its size", () => {
    let now = 0;
    const take = unauthenticatedPageLimiter({ limitPerMinute: 2, maxAddresses: 2, now: () => now });
    expect([take("2001:db8::1"), take("2001:db8::2"), take("2001:db8::3")].map((s) => s.allowed)).toEqual([
      true,
      true,
      false,
    ]);
    // Two a minute: one token every 30 s.
    expect(take("2001:db8::1").retryAfterSeconds).toBe(30);
    now += 30_000;
    expect(take("2001:db8::1").allowed).toBe(true);
    // Two other addresses push the /64 out: it starts again with a full bucket.
    take("198.51.100.1");
    take("198.51.100.2");
    expect(take("2001:db8::1").allowed).toBe(true);
  });
});

describe("the limit at the front of the app's server", () => {
  it("answers a page without a session cookie past the limit itself, before Next; the rest go on, counted once", async () => {
    const handled: { url: string; counted: string | undefined }[] = [];
    const front = withUnauthenticatedPageLimit(
      () => "192.0.2.1",
      (req, res) => {
        handled.push({ url: req.url!, counted: req.headers[PAGE_COUNTED_HEADER] as string | undefined });
        res.end("page");
      },
      unauthenticatedPageLimiter({ limitPerMinute: 2, now: () => 0 }),
    );
    const server = createServer(front);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers });
      // A client's own copy of the header is never believed.
      expect((await get("/docs", { [PAGE_COUNTED_HEADER]: "1" })).status).toBe(200);
      expect((await get("/sign-in")).status).toBe(200);
      const refused = await get("/docs");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await refused.json()) as { detail: string }).detail).toContain("pages a minute from this address");
      // Not pages (the API, Next's files) and requests with a session cookie (proxy.ts verifies and counts those).
      expect((await get("/api/health")).status).toBe(200);
      expect((await get("/_next/static/chunk.js")).status).toBe(200);
      expect((await get("/dashboard", { cookie: "a=1; __Secure-next-auth.session-token.0=x" })).status).toBe(200);
      expect(handled).toEqual([
        { url: "/docs", counted: "1" },
        { url: "/sign-in", counted: "1" },
        { url: "/api/health", counted: undefined },
        { url: "/_next/static/chunk.js", counted: undefined },
        { url: "/dashboard", counted: undefined },
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
