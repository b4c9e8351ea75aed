import http from "node:http";
import { SIGN_IN_PER_IP_PER_MINUTE } from "@/server/services/rate-limits/throttle-sign-in";
import { E2E_PORT } from "./environment";
import { expect, test } from "@playwright/test";

/**
 * A sign-in attempt sent from `localAddress` (another loopback address than the one every other spec uses, so
 * this spec's limit is its own) with a client-written X-Forwarded-For naming a different address each time.
 */
function signInFrom(localAddress: string, forwardedFor: string): Promise<number> {
  const body = JSON.stringify({ email: `nobody-${crypto.randomUUID()}@test.example`, password: "wrong password" });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: E2E_PORT,
        path: "/api/v2/auth/token",
        method: "POST",
        localAddress,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "x-forwarded-for": forwardedFor,
        },
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

// Through the production server, not a route handler called in a test: what decides the client's address is the
// server's handling of X-Forwarded-For (it appends the TCP peer; Next alone keeps the client's header as sent, so
// the forged last entry would be taken as the client and every attempt would land in a fresh limit). The forged
// header here names only the forged address, so nothing but the server can supply the real one.
test("a forged X-Forwarded-For never moves a client into a fresh sign-in limit (the real server's peer counts)", async () => {
  test.setTimeout(180_000);
  const peer = `127.0.0.${10 + Math.floor(Math.random() * 200)}`;
  const statuses: number[] = [];
  for (let i = 0; i < SIGN_IN_PER_IP_PER_MINUTE + 5; i++) {
    statuses.push(await signInFrom(peer, `203.0.113.${i % 250}`));
  }
  // As in webhook-limits.test.ts: the limit's bucket answers its last token on the attempt after the limit.
  expect(statuses.slice(0, SIGN_IN_PER_IP_PER_MINUTE).every((s) => s === 401)).toBe(true);
  expect(statuses.slice(SIGN_IN_PER_IP_PER_MINUTE + 1)).toEqual(Array(4).fill(429));
});
