import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as token from "@/app/api/v2/auth/token/route";
import { CLIENT_ADDRESS_HEADER, trustProxies } from "@/server/http/client-address";
import { call } from "@/test/helpers";
import { loopbackPeer, requestFrom, serveBehindFront } from "@/test/front-server";
import { addressLimitKey } from "./address-key";
import { SIGN_IN_PER_IP_PER_MINUTE } from "./throttle-sign-in";

// The limits' clock stands still (take-tokens.ts reads `Date`), so attempts are counted exactly however slow the
// machine is: no token comes back while a test runs.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date());
});
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.splice(0)) await close();
});

/** POST /auth/token behind the front of the app's server (real sockets), trusting `trustedProxies`. */
async function tokenServer(trustedProxies: string[]) {
  const { port, close } = await serveBehindFront(trustProxies(trustedProxies), token.POST);
  closers.push(close);
  // A new email every time: the per-email limit (10) never answers first.
  const body = () => JSON.stringify({ email: `nobody-${randomUUID()}@test.example`, password: "wrong password" });
  return async (peer: string, headers: Record<string, string> = {}) =>
    (
      await requestFrom(port, peer, {
        method: "POST",
        path: "/api/v2/auth/token",
        headers: { "content-type": "application/json", ...headers },
        body: body(),
      })
    ).status;
}

/** The limit's worth of wrong passwords (401), then refusals (429). */
const limited = (statuses: number[]) =>
  expect(statuses).toEqual([
    ...Array<number>(SIGN_IN_PER_IP_PER_MINUTE).fill(401),
    ...Array<number>(statuses.length - SIGN_IN_PER_IP_PER_MINUTE).fill(429),
  ]);
const ATTEMPTS = SIGN_IN_PER_IP_PER_MINUTE + 2;

describe("sign-in attempts through the app's server", () => {
  it("from one address are limited whatever X-Forwarded-For or x-sop-client-address the client writes", async () => {
    const signIn = await tokenServer([]);
    const peer = loopbackPeer();
    const statuses: number[] = [];
    for (let i = 0; i < ATTEMPTS; i++)
      statuses.push(
        await signIn(peer, {
          "x-forwarded-for": `203.0.113.${i % 250}`,
          [CLIENT_ADDRESS_HEADER]: `192.0.2.${i % 250}`,
        }),
      );
    limited(statuses);
    // Another address is another client, with its own limit.
    expect(await signIn(loopbackPeer())).toBe(401);
  }, 120_000);

  it("behind a trusted proxy are limited per client, the right-most hop that is not a proxy", async () => {
    const proxy = loopbackPeer();
    const signIn = await tokenServer([proxy, "10.0.0.0/8"]);
    const client = `198.51.${Math.floor(Math.random() * 100)}.${1 + Math.floor(Math.random() * 250)}`;
    const statuses: number[] = [];
    for (let i = 0; i < ATTEMPTS; i++)
      statuses.push(await signIn(proxy, { "x-forwarded-for": `203.0.113.${i % 250}, ${client}, 10.0.0.7` }));
    limited(statuses);
    // Other clients behind the same proxy are not limited with that one.
    expect(await signIn(proxy, { "x-forwarded-for": `${client}, 198.51.100.250, 10.0.0.7` })).toBe(401);
    // The same forwarded chain straight from an untrusted peer is that peer's, not the client's.
    expect(await signIn(loopbackPeer(), { "x-forwarded-for": `${client}, 10.0.0.7` })).toBe(401);
  }, 120_000);

  it("from IPv6 clients are limited per /64", async () => {
    const proxy = loopbackPeer();
    const signIn = await tokenServer([proxy]);
    const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
    const network = `2001:db8:${hex()}:${hex()}`;
    const statuses: number[] = [];
    // A fresh address of the /64 every time, as a host given a /64 can take.
    for (let i = 0; i < ATTEMPTS; i++)
      statuses.push(
        await signIn(proxy, { "x-forwarded-for": `${network}:${hex()}:${hex()}:${hex()}:${i.toString(16)}` }),
      );
    limited(statuses);
    expect(await signIn(proxy, { "x-forwarded-for": `2001:db8:${hex()}:${hex()}::1` })).toBe(401);
  }, 120_000);
});

describe("a sign-in attempt without a client address", () => {
  it("is limited too: every such attempt counts under one key", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ATTEMPTS; i++) {
      const response = await call(token.POST, "/api/v2/auth/token", {
        body: { email: `nobody-${randomUUID()}@test.example`, password: "wrong password" },
        // What a route sees when the request did not come through the app's server (a bare `next start`).
        headers: { [CLIENT_ADDRESS_HEADER]: "", "x-forwarded-for": `203.0.113.${i}` },
      });
      statuses.push(response.status);
    }
    limited(statuses);
  }, 120_000);
});

describe("the key of a per-address limit", () => {
  it("is the IPv4 address, the /64 of an IPv6 one, and `unknown` without one", () => {
    expect(addressLimitKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressLimitKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressLimitKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressLimitKey("2001:db8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(addressLimitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressLimitKey(null)).toBe("unknown");
    expect(addressLimitKey("not-an-address")).toBe("unknown");
  });
});
