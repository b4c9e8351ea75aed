import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it, vi } from "vitest";

// Before any module makes the logger: every line of this file's requests goes to a file the test reads.
const logFile = vi.hoisted(() => {
  const file = `${process.env.TMPDIR ?? "/tmp"}/sop-log-${process.pid}-${Date.now()}.jsonl`;
  process.env.LOG_FILE = file;
  process.env.LOG_LEVEL = "debug";
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  process.env.METRICS_TOKEN = "metrics-token-for-the-test-0123";
  return file;
});

import * as token from "@/app/api/v2/auth/token/route";
import * as createOrders from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as apiKeys from "@/app/api/v2/private/api-keys/route";
import * as endpoints from "@/app/api/v2/private/webhook-endpoints/route";
import * as metricsRoute from "@/app/api/metrics/route";
import * as ready from "@/app/api/health/ready/route";
import { restRoute } from "@/server/http/handler";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import { order } from "@/test/partner";
import { logger } from "./logger";

type Line = Record<string, unknown> & { msg: string; level: string };
const lines = (): Line[] =>
  readFileSync(logFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

let user: TestUser;
beforeAll(async () => {
  user = await createTestUser();
});

describe("request ids", () => {
  it("answers with the caller's X-Request-Id when it is safe, else a new one, and logs the request once with it", async () => {
    const mine = await call(apiKeys.GET, "/api/v2/private/api-keys", {
      token: user.token,
      headers: { "x-request-id": "support-ticket-42" },
    });
    expect(mine.headers.get("x-request-id")).toBe("support-ticket-42");
    const unsafe = await call(apiKeys.GET, "/api/v2/private/api-keys", {
      token: user.token,
      headers: { "x-request-id": "no spaces <allowed>" },
    });
    expect(unsafe.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines().filter((l) => l.msg === "request" && l.requestId === "support-ticket-42");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      operation: "listApiKeys",
      status: 200,
      method: "GET",
      path: "/api/v2/private/api-keys",
      userId: user.userId,
    });
    expect(typeof logged[0]!.durationMs).toBe("number");
  });

  it("names the id in a 500's problem, and the log line with the stack carries the same id", async () => {
    const failing = restRoute(async () => {
      throw new Error("a bug on purpose");
    }, "testFailure");
    const response = await failing(new Request("http://localhost/api/x", { headers: { "x-request-id": "trace-500" } }));
    expect(response.status).toBe(500);
    expect(response.headers.get("x-request-id")).toBe("trace-500");
    expect((await readJson<{ detail: string }>(response)).detail).toContain("trace-500");
    const error = lines().find((l) => l.msg === "unhandled error" && l.requestId === "trace-500");
    expect(String(error?.err)).toContain("a bug on purpose");
  });
});

describe("logs of a full flow", () => {
  it("never contain a password, access token, API key, webhook secret or credential that flowed through", async () => {
    const signIn = await call(token.POST, "/api/v2/auth/token", {
      body: { email: user.email, password: user.password },
    });
    const { accessToken } = await readJson<{ accessToken: string }>(signIn);
    await call(token.POST, "/api/v2/auth/token", { body: { email: user.email, password: "wrong-password-xyz" } });
    const created = await call(apiKeys.POST, "/api/v2/private/api-keys", {
      token: accessToken,
      body: { name: "shop" },
    });
    const { key } = await readJson<{ key: string }>(created);
    const hook = await call(endpoints.POST, "/api/v2/private/webhook-endpoints", {
      token: accessToken,
      body: { url: "http://127.0.0.1:4011/hooks" },
    });
    const { secret } = await readJson<{ secret: string }>(hook);
    const orderResponse = await call(createOrders.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      apiKey: key,
      body: order(),
      params: { courier_id: "sandbox" },
    });
    expect(orderResponse.status).toBe(200);
    // What a careless caller might log: redaction is configured once, for every line.
    logger.info(
      {
        headers: { authorization: `Bearer ${accessToken}`, "x-api-key": key },
        settings: { apiPassword: "packeta-password-123456", clientSecret: "ppl-client-secret-654321" },
        body: { password: user.password, secret },
      },
      "a careless line",
    );
    const log = readFileSync(logFile, "utf8");
    expect(log).toContain("a careless line");
    expect(lines().filter((l) => l.msg === "request").length).toBeGreaterThanOrEqual(4);
    for (const value of [
      user.password,
      "wrong-password-xyz",
      accessToken,
      key,
      secret,
      "packeta-password-123456",
      "ppl-client-secret-654321",
    ])
      expect(log, `a secret reached the log`).not.toContain(value);
  });
});

describe("metrics and readiness", () => {
  it("serves Prometheus metrics with the bearer token only", async () => {
    expect((await call(metricsRoute.GET, "/api/metrics")).status).toBe(401);
    expect((await call(metricsRoute.GET, "/api/metrics", { token: "wrong-token-wrong-token" })).status).toBe(401);
    const scraped = await call(metricsRoute.GET, "/api/metrics", { token: process.env.METRICS_TOKEN });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toMatch(/sop_http_requests_total\{operation="listApiKeys",status="200"\} \d+/);
    expect(text).toContain("sop_http_request_duration_seconds_bucket");
    expect(text).toContain("sop_courier_call_duration_seconds_count");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    expect(text).toMatch(/sop_jobs_waiting\{queue="webhook-delivery"\} \d+/);
    // On PostgreSQL, the pool's connections by state (the embedded database has no pool).
    if (process.env.DATABASE_URL) expect(text).toMatch(/sop_db_pool_connections\{state="max"\} \d+/);
  });

  it("is ready when every migration is applied", async () => {
    const response = await call(ready.GET, "/api/health/ready");
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ status: "ready" });
  });
});
