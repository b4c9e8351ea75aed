import http from "node:http";
import { SIGN_IN_PER_IP_PER_MINUTE } from "@/server/services/rate-limits/throttle-sign-in";
import { E2E_PORT, E2E_TRUSTED_PROXY } from "./environment";
import { expect, test } from "@playwright/test";

/**
 * A sign-in attempt sent from `localAddress` (another loopback address than the one every other spec uses, so
 * this spec's limits are its own) with the headers given: a client-written X-Forwarded-For and x-sop-client-address.
 */
function signInFrom(localAddress: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({ email: `nobody-${crypto.randomUUID()}@test.example`, password: "wrong password" });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: E2E_PORT,
        path: "/api/v2/auth/token",
        method: "POST",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * `attempts` sign-ins, 10 at a time (faster than the limit refills, however slow each one is), from `send`. The
 * server's clock runs (throttle-sign-in.test.ts stops it): the bucket holds the limit and refills one token a second,
 * so no more than the limit plus one per second elapsed may be let through, and some must be refused.
 */
async function expectLimited(send: (i: number) => Promise<number>, attempts = 100) {
  const started = performance.now();
  const statuses: number[] = [];
  for (let i = 0; i < attempts; i += 10)
    statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => send(i + j)))));
  const seconds = (performance.now() - started) / 1000;
  const wrongPassword = statuses.filter((s) => s === 401).length;
  expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  expect(wrongPassword).toBeGreaterThanOrEqual(SIGN_IN_PER_IP_PER_MINUTE);
  expect(wrongPassword).toBeLessThanOrEqual(
    SIGN_IN_PER_IP_PER_MINUTE + Math.ceil((seconds * SIGN_IN_PER_IP_PER_MINUTE) / 60),
  );
  expect(statuses).toContain(429);
}

// Through the production server (`npm start`: scripts/serve.ts), not a route handler called in a test: what decides
// the client's address is that server, from the TCP peer (Next alone takes a client-sent X-Forwarded-For as it is,
// so every forged entry would be a fresh limit). The forged headers here name only forged addresses, so nothing but
// the server can supply the real one.
test("a forged X-Forwarded-For never moves a client into a fresh sign-in limit (the real server's peer counts)", async () => {
  test.setTimeout(180_000);
  const peer = `127.0.0.${10 + Math.floor(Math.random() * 200)}`;
  await expectLimited((i) =>
    signInFrom(peer, { "x-forwarded-for": `203.0.113.${i % 250}`, "x-sop-client-address": `192.0.2.${i % 250}` }),
  );
});

// The e2e server trusts E2E_TRUSTED_PROXY (TRUSTED_PROXIES): from it, the client is the hop that proxy appended,
// and an IPv6 client's limit is its /64's, however many of its addresses it uses.
test("behind a trusted proxy the forwarded client counts, an IPv6 one per /64", async () => {
  test.setTimeout(180_000);
  const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
  const network = `2001:db8:${hex()}:${hex()}`;
  await expectLimited((i) =>
    signInFrom(E2E_TRUSTED_PROXY, { "x-forwarded-for": `203.0.113.${i % 250}, ${network}::${i.toString(16)}` }),
  );
  // Another network behind the same proxy is another client.
  expect(await signInFrom(E2E_TRUSTED_PROXY, { "x-forwarded-for": `2001:db8:${hex()}:${hex()}::1` })).toBe(401);
});
