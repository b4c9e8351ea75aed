import { encode } from "next-auth/jwt";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "@/server/env";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/client-address";
import { UNAUTHENTICATED_PAGES_PER_MINUTE } from "@/server/http/unauthenticated-page-limit";
import { config, proxy } from "./proxy";

// The clock stands still: no token comes back while a test sends, however slow the machine.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date());
});
afterEach(() => vi.useRealTimers());

const randomAddress = () => `203.0.113.${1 + Math.floor(Math.random() * 254)}`;

/** A page request as the app's server hands it to the proxy: with the client's address it determined. */
const page = (path: string, address: string, headers: Record<string, string> = {}) =>
  proxy(new NextRequest(`http://localhost${path}`, { headers: { [CLIENT_ADDRESS_HEADER]: address, ...headers } }));

async function sessionCookie(): Promise<string> {
  const token = { sub: crypto.randomUUID(), email: "u@test.example", isStaff: false, sv: 0 };
  const value = await encode({
    token: { ...token, authAt: Math.floor(Date.now() / 1000) },
    secret: env().AUTH_SECRET,
    maxAge: 3600,
  });
  return `next-auth.session-token=${value}`;
}

describe("pages without a session", () => {
  it(`are limited to ${UNAUTHENTICATED_PAGES_PER_MINUTE} a minute per address (429 past it), a signed-in user's never counted`, async () => {
    const address = randomAddress();
    const paths = ["/", "/sign-in", "/docs", "/widget/pickup-points", "/dashboard"];
    const statuses: number[] = [];
    for (let i = 0; i < UNAUTHENTICATED_PAGES_PER_MINUTE; i++)
      statuses.push((await page(paths[i % paths.length]!, address)).status);
    // The proxy lets a page through (200, rendered by Next next) or sends the dashboard's visitor to sign in (307).
    expect(statuses.every((status) => status === 200 || status === 307)).toBe(true);

    const refused = await page("/docs", address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { detail: string }).detail).toContain("without signing in");
    // A prefetch is a page request like any other: the proxy runs for it, and counts it.
    const prefetch = { "next-router-prefetch": "1", purpose: "prefetch" };
    expect(unstable_doesMiddlewareMatch({ config, url: "http://localhost/docs", headers: prefetch })).toBe(true);
    expect((await page("/sign-in", address, prefetch)).status).toBe(429);

    // Another address has its own bucket; a signed-in user from the same address is not counted.
    expect((await page("/docs", randomAddress())).status).toBe(200);
    const cookie = await sessionCookie();
    for (let i = 0; i < 5; i++) expect((await page("/dashboard/orders", address, { cookie })).status).toBe(200);

    // The bucket refills continuously: two tokens a second.
    vi.setSystemTime(Date.now() + 1000);
    expect((await page("/docs", address)).status).toBe(200);
    expect((await page("/docs", address)).status).toBe(200);
    expect((await page("/docs", address)).status).toBe(429);
  });

  it("without an address share the one bucket `unknown`", async () => {
    for (let i = 0; i < UNAUTHENTICATED_PAGES_PER_MINUTE; i++) await page("/sign-in", "");
    expect((await page("/sign-in", "")).status).toBe(429);
  });
});
