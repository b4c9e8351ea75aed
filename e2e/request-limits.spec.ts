import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_METRICS_TOKEN, E2E_PORT } from "./environment";

// Playwright's own `test`: these need no browser. Everything here goes through the production server, since what is
// asserted is what the server does with the bytes on the wire: how much of a body it reads, which headers it sends.

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; sent: number };

/**
 * Sends a request whose body is `total` bytes of `fill`, written 64 KiB at a time and only as fast as the server
 * reads it (each write waits for `drain`), and stops writing as soon as an answer arrives. `sent` says how much of
 * the body had been handed to the socket by then: a server that refuses while streaming answers long before all of
 * it is sent. A server that waits for a body it will never get answers nothing: `status` 0 after `quietMs`.
 */
function streamBody(
  path: string,
  headers: http.OutgoingHttpHeaders,
  { total, fill = "a", quietMs = 5000 }: { total: number; fill?: string; quietMs?: number },
): Promise<Answer> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let quiet: NodeJS.Timeout | undefined;
    const request = http.request({ host: "127.0.0.1", port: E2E_PORT, path, method: "POST", headers }, (response) => {
      answered = true;
      clearTimeout(quiet);
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, sent });
        request.destroy();
      });
    });
    // Once the answer is in, a reset of the rest of the upload is the server closing a connection it is done with.
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const write = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", write);
      }
      if (answered) return;
      request.end();
      quiet = setTimeout(() => {
        resolve({ status: 0, headers: {}, body: "", sent });
        request.destroy();
      }, quietMs);
    };
    write();
  });
}

function send(
  path: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: E2E_PORT, path, method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (part: string) => (text += part));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text, sent: 0 }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

const MiB = 1024 * 1024;
// Far more than any socket buffers between the client and the server can hold, so "refused before it was all sent"
// means the server stopped reading, not that the kernel swallowed the rest.
const HUGE = 64 * MiB;
const BOUND = 16 * MiB;

async function expectTooLarge(answer: Answer) {
  expect(answer.status).toBe(413);
  expect(answer.headers["content-type"]).toContain("application/problem+json");
  expect(JSON.parse(answer.body)).toMatchObject({ status: 413, errors: [{ field: "body" }] });
  expect(answer.headers["x-request-id"]).toBeTruthy();
}

test.describe("bodies on every door: 1 MiB, refused while streaming", () => {
  test.setTimeout(120_000);

  test("the sign-in callback (no account needed) refuses a body without a length once it passes 1 MiB", async () => {
    const answer = await streamBody(
      "/api/auth/callback/credentials",
      { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
      { total: HUGE },
    );
    await expectTooLarge(answer);
    expect(answer.sent).toBeLessThan(BOUND);
  });

  test("the sign-in callback refuses a declared 2 GB body before reading it", async () => {
    const answer = await streamBody(
      "/api/auth/callback/credentials",
      { "content-type": "application/x-www-form-urlencoded", "content-length": String(2 * 1024 * MiB) },
      { total: HUGE },
    );
    await expectTooLarge(answer);
    expect(answer.sent).toBeLessThan(BOUND);
  });

  test("tRPC refuses a body without a length once it passes 1 MiB, signed in or not", async () => {
    const answer = await streamBody(
      "/api/trpc/shippingOrders.create?batch=1",
      { "content-type": "application/json", "transfer-encoding": "chunked" },
      { total: HUGE, fill: " " },
    );
    await expectTooLarge(answer);
    expect(answer.sent).toBeLessThan(BOUND);
  });

  test("a body just under 1 MiB still reaches the sign-in callback", async () => {
    const padding = "x".repeat(MiB - 200);
    const answer = await send("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `email=a%40b.example&password=wrong&pad=${padding}`,
    });
    expect(answer.status).not.toBe(413);
  });

  test("tRPC input gets the REST door's checks: nesting past 64 levels and U+0000 are 400s naming the place", async () => {
    const post = (input: unknown) =>
      send("/api/trpc/sources.activate?batch=1", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ 0: { json: input } }),
      });
    let deep: unknown = "bottom";
    for (let i = 0; i < 100; i++) deep = [deep];
    const tooDeep = await post(deep);
    expect(tooDeep.status).toBe(400);
    expect(JSON.parse(tooDeep.body)).toMatchObject({ errors: [{ message: "nested more than 64 levels deep" }] });

    const nul = await post({ accountId: "x", name: "a\u0000b" });
    expect(nul.status).toBe(400);
    expect(JSON.parse(nul.body)).toMatchObject({ errors: [{ field: "name" }] });
  });
});

/** The `operation` label of every `sop_http_requests_total` series /api/metrics has now. */
async function operationSeries(): Promise<string[]> {
  const answer = await send("/api/metrics", { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(answer.status).toBe(200);
  return answer.body
    .split("\n")
    .filter((line) => line.startsWith("sop_http_requests_total{"))
    .map((line) => /operation="((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? "");
}

test.describe("metric labels", () => {
  test.setTimeout(120_000);

  test("requests to many made-up paths add no series: a label is a procedure's name, `trpc:batch` or `unknown`", async () => {
    const before = await operationSeries();
    const marker = `probe${Date.now()}`;
    const paths = [
      ...Array.from({ length: 60 }, (_, i) => `/api/trpc/${marker}.n${i}`),
      ...Array.from({ length: 30 }, (_, i) => `/api/trpc/accounts.mine,${marker}${i}?batch=1`),
      ...Array.from({ length: 30 }, (_, i) => `/api/auth/${marker}${i}`),
      ...Array.from({ length: 30 }, (_, i) => `/api/v2/${marker}/${i}`),
    ];
    for (const path of paths) await send(path);
    const after = await operationSeries();
    expect(after.filter((operation) => operation.includes(marker))).toEqual([]);
    // New series only for statuses `unknown` had not answered yet (and whatever other specs ran meanwhile).
    expect(after.length - before.length).toBeLessThan(20);
    for (const operation of after) expect(operation).toMatch(/^(unknown|trpc:[A-Za-z.]+|auth:[a-z_-]+|[A-Za-z]+)$/);
  });

  test("a batch of known procedures is one bounded label, and a batch past the limit is refused", async () => {
    const names = Array.from({ length: 21 }, () => "accounts.mine").join(",");
    const tooMany = await send(`/api/trpc/${names}?batch=1`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toContain("Batch call exceeds maximum size");
  });

  test("a path that is not valid percent-encoding is a 400 problem with a request id, not a plain 500", async () => {
    for (const path of ["/api/trpc/%E2", "/api/auth/%E2", "/api/v2/shipping-orders/%E2%82"]) {
      const answer = await send(path);
      expect(answer.status, path).toBe(400);
      expect(answer.headers["content-type"], path).toContain("application/problem+json");
      expect(answer.headers["x-request-id"], path).toBeTruthy();
    }
  });

  test("a multi-byte bearer token is a 401, not a 500", async () => {
    const answer = await send("/api/metrics", {
      headers: { authorization: `Bearer ${"é".repeat(E2E_METRICS_TOKEN.length)}` },
    });
    expect(answer.status).toBe(401);
  });
});

test("an unknown path under /api/v2 is a 404 problem that carries X-Request-Id, the caller's when it sends one", async () => {
  const answer = await send("/api/v2/no-such-operation", { headers: { "x-request-id": "trace-404-unknown-path" } });
  expect(answer.status).toBe(404);
  expect(answer.headers["content-type"]).toContain("application/problem+json");
  expect(answer.headers["x-request-id"]).toBe("trace-404-unknown-path");
  const fresh = await send("/api/v2/no-such-operation");
  expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
});
