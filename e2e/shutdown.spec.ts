import { spawn } from "node:child_process";
import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { openPostgres, queryRows } from "@/db/client";
import { createUser } from "@/server/services/accounts/create-user";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { E2E_PORT, stopDatabaseName } from "./environment";
// Playwright's own `test`: this spec needs no browser (the fixtures' `test` opens one for every test).
import { expect, test } from "@playwright/test";
import { orderBody } from "./fixtures";

type Post = { webhookId: string; at: number; answered: boolean; cut: boolean };

/**
 * A webhook receiver on 127.0.0.1 that holds every POST open until `release()`: a delivery in flight for as long
 * as the test wants. It records each POST's `webhook-id`, and whether it was answered or cut by the sender.
 */
async function startHoldingReceiver() {
  const posts: Post[] = [];
  const held: { post: Post; res: ServerResponse }[] = [];
  let released = false;
  const server = createServer((req, res) => {
    const post: Post = { webhookId: String(req.headers["webhook-id"]), at: Date.now(), answered: false, cut: false };
    posts.push(post);
    req.resume();
    res.on("close", () => (post.cut = !post.answered));
    if (released) {
      post.answered = true;
      res.end("ok");
    } else held.push({ post, res });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    posts,
    release() {
      released = true;
      for (const { post, res } of held.splice(0)) {
        post.answered = true;
        res.end("ok");
      }
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One request on a connection of its own, closed after the answer (`fetch` keeps connections open, and a server
 * that is stopping waits for open connections: that would hide a process that exits as soon as its HTTP is idle).
 */
function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/**
 * SIGTERM to `npm start` (scripts/start.ts → scripts/serve.ts, production build) with the worker on (the default): a
 * process of its own on a database of its own, so no other process's worker can take its delivery. While a webhook
 * POST and a request are in flight, readiness answers 503 at once; the POST completes and its outcome is recorded
 * (the delivery succeeded after one attempt, nothing left to retry it), the request is answered, and the process
 * exits 0 by itself (Next's own handler would exit at once, cutting the POST, which would then be sent again).
 */
test("on SIGTERM readiness turns 503, the webhook POST and the request in flight finish, the outcome is recorded, and the process exits 0", async () => {
  test.setTimeout(180_000);
  const port = E2E_PORT + 17;
  const base = `http://127.0.0.1:${port}`;
  const serverUrl = new URL(process.env.DATABASE_URL!);
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${stopDatabaseName()}`;
  const admin = postgres(serverUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${stopDatabaseName()}" with (force)`);
  await admin.unsafe(`create database "${stopDatabaseName()}"`);
  const receiver = await startHoldingReceiver();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      PORT: String(port),
      WORKER: "on",
      WORKER_POLLING_SECONDS: "0.5",
      PUBLIC_URL: base,
      NEXTAUTH_URL: base,
      COURIER_TIMEOUT_MS: "2000",
      // The receiver holds the POST for several seconds: well within the attempt's timeout, even on a slow machine.
      WEBHOOK_TIMEOUT_MS: "30000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const pool = await openPostgres(databaseUrl.toString(), 2);
  try {
    await expect
      .poll(async () => (await call(`${base}/api/health/ready`).catch(() => null))?.status ?? 0, { timeout: 90_000 })
      .toBe(200);

    // An account on this database, an API key, a sandbox profile, and an endpoint made through the API.
    const password = "e2e-password-2026";
    const email = `e2e-stop-${Date.now()}@test.example`;
    const owner = await createUser(pool.db, { email, password, accountName: "E2E stopping shop" });
    const actor = { userId: owner.userId, isStaff: false };
    const { key } = await createApiKey(pool.db, actor, {
      accountId: owner.accountId,
      name: "stop",
      rateLimitPerMinute: 1000,
    });
    const profile = await createCourierProfile(pool.db, actor, {
      accountId: owner.accountId,
      courier: "sandbox",
      name: "E2E sandbox",
      service: "STANDARD",
    });
    const token = JSON.parse(
      (
        await call(`${base}/api/v2/auth/token`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password }),
        })
      ).text,
    ) as { accessToken: string };
    const endpoint = await call(`${base}/api/v2/private/webhook-endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ accountId: owner.accountId, url: receiver.url, eventTypes: ["shipping_order.created"] }),
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const create = (body: Record<string, unknown>) =>
      call(`${base}/api/v2/couriers/sandbox/shipping-orders?profile=${profile.id}`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/svc.shipping-order+json" },
        body: JSON.stringify(orderBody(body)),
      });

    // An order whose `created` event the worker delivers: the receiver holds that POST open.
    const created = await create({});
    expect(created.status, created.text).toBe(200);
    await expect.poll(() => receiver.posts.length, { timeout: 30_000 }).toBe(1);
    const webhookId = receiver.posts[0]!.webhookId;

    // A request in flight too: the sandbox never answers a COURIER-TIMEOUT order, so this runs for 2 s.
    const inFlight = create({ ReferenceNumber: `COURIER-TIMEOUT-${Date.now()}` });
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill("SIGTERM");

    // (1) Readiness answers 503 while the process drains (the POST is still held, so it cannot have finished).
    await expect
      .poll(async () => (await call(`${base}/api/health/ready`).catch(() => null))?.status ?? 0, {
        timeout: 5_000,
        intervals: [50],
      })
      .toBe(503);
    expect(child.exitCode, output.slice(-2000)).toBeNull();
    expect(receiver.posts[0]!.cut).toBe(false);

    // The request in flight is answered while the worker is still waiting for the receiver.
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect((JSON.parse(answered.text) as { failed: { code: string }[] }).failed).toEqual([
      expect.objectContaining({ code: "COURIER_TIMEOUT" }),
    ]);
    // Next's own handler exits as soon as its last request is answered, cutting the POST. Here the process waits
    // for its worker: the POST stays held a moment after the last request, and the process is still there.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(child.exitCode, output.slice(-2000)).toBeNull();
    expect(receiver.posts[0]!.cut).toBe(false);

    // (2) The POST completes once the receiver answers.
    receiver.release();

    // (3) The process exits by itself, with 0, and takes no new connection.
    expect(
      await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running"), 60_000))]),
      output.slice(-3000),
    ).toBe(0);
    await expect(call(`${base}/api/health`)).rejects.toThrow();

    // The outcome is recorded: the delivery succeeded with its one attempt, and no job is left to POST it again.
    expect(
      await queryRows(
        pool.db,
        'select status, attempts, response_status as "responseStatus" from webhook_deliveries where event_id = $1',
        [webhookId],
      ),
    ).toEqual([{ status: "succeeded", attempts: 1, responseStatus: 200 }]);
    expect(
      await queryRows(
        pool.db,
        `select j.name, j.state from pgboss.job j join webhook_deliveries d on j.data->>'deliveryId' = d.id::text
          where d.event_id = $1 and j.state in ('created', 'retry', 'active')`,
        [webhookId],
      ),
    ).toEqual([]);
    expect(receiver.posts.map((p) => ({ webhookId: p.webhookId, answered: p.answered, cut: p.cut }))).toEqual([
      { webhookId, answered: true, cut: false },
    ]);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    await pool.close();
    await receiver.close();
    await admin.unsafe(`drop database if exists "${stopDatabaseName()}" with (force)`).catch(() => {});
    await admin.end();
  }
});
