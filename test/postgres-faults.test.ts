import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres, { type Sql } from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { createUser } from "@/server/services/accounts/create-user";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { printFigures } from "@/test/figures";
import { order } from "@/test/partner";
import { migrateCluster, startCluster, type Cluster } from "@/test/pg-cluster";

/**
 * Faults only a real PostgreSQL server can stage, on a throwaway cluster of this suite's own (so it runs in
 * every mode, with or without DATABASE_URL), with the app in a child process pointed at it:
 *  a. the backend of an in-flight 500-order create terminated inside its transaction → 503 problem, none of the
 *     batch stored, and the same request retried stores all 500;
 *  b. PostgreSQL stopped and started under load → 503 problems while it is down (no 500, no hang), recovery
 *     without restarting the app, and every order whose create answered 200 still there.
 */

// The account's webhook endpoint (so every event also writes a delivery and a job) is on loopback.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

const APP = "shipping-order-platform";
const figures = { cases: 0, fiveXx: 0, intended503: 0, ordersLost: 0, details: [] as string[] };

let cluster: Cluster;
let admin: Sql;
let app: ChildProcess;
let appLog = "";
let base: string;
let apiKey: string;
let accountId: string;
/** Set once afterAll stops the app: an exit before that is a crash. */
let stopping = false;

async function startApp(databaseUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const tsx = path.resolve("node_modules/.bin/tsx");
  const child = spawn(tsx, ["test/route-server.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: "6",
      NODE_ENV: "test",
      PGLITE_SNAPSHOT: "",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sop-app-")),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.once("exit", (code, signal) => {
    appLog += `\n[the app exited: code ${code}, signal ${signal}]`;
    if (!stopping)
      console.error(
        `the app process exited (code ${code}, signal ${signal}); its last output:\n${appLog.slice(-4_000)}`,
      );
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    appLog = (appLog + chunk.toString()).slice(-20_000);
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start within 30 s:\n${appLog}`)), 30_000);
    child.once("exit", (code) => reject(new Error(`the app exited with ${code}:\n${appLog}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const parsed = (() => {
        try {
          return JSON.parse(line) as { port?: number };
        } catch {
          return {};
        }
      })();
      if (parsed.port) {
        clearTimeout(timer);
        resolve(parsed.port);
      }
    });
  });
  return { child, port };
}

/** The app's last logged errors, shortened (a failed batch insert logs every parameter). */
const lastAppErrors = () =>
  appLog
    .split("\n")
    .filter((line) => line.includes('"msg"'))
    .slice(-3)
    .map((line) => (line.length > 700 ? `${line.slice(0, 300)} … ${line.slice(-400)}` : line))
    .join("\n");

type Sent = { status: number; contentType: string | null; retryAfter: string | null; body: unknown; ms: number };

/** A request to the app in the child process; a hang becomes status 0 after 20 s. */
async function send(method: string, pathname: string, body?: unknown): Promise<Sent> {
  const started = performance.now();
  figures.cases += 1;
  try {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    if (response.status >= 500 && response.status !== 503) figures.fiveXx += 1;
    if (response.status === 503) figures.intended503 += 1;
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep the text
    }
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      retryAfter: response.headers.get("retry-after"),
      body: parsed,
      ms: performance.now() - started,
    };
  } catch (error) {
    figures.fiveXx += 1;
    return { status: 0, contentType: null, retryAfter: null, body: String(error), ms: performance.now() - started };
  }
}

type Created = { items: { id: string; referenceNumber: string }[]; failed: unknown[] };

/**
 * Sends as a client honouring Retry-After would: a 503 is tried again after the seconds it names, a few times.
 * (A backend terminated a moment ago may still be in the pool until its socket's close arrives.)
 */
async function sendRetrying(method: string, pathname: string, body: unknown): Promise<Sent> {
  let sent = await send(method, pathname, body);
  for (let attempt = 1; attempt < 5 && sent.status === 503; attempt++) {
    await sleep(Number(sent.retryAfter ?? "1") * 1000);
    sent = await send(method, pathname, body);
  }
  return sent;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function storedCount(prefix: string, liveOnly = false): Promise<number> {
  const [row] = await admin<{ n: number }[]>`
    select count(*)::int as n from shipping_orders
    where account_id = ${accountId} and reference_number like ${`${prefix}%`} ${liveOnly ? admin`and deleted_at is null` : admin``}`;
  return row!.n;
}

beforeAll(async () => {
  cluster = await startCluster();
  await migrateCluster(cluster.url);
  admin = postgres(cluster.url, { max: 3, onnotice: () => {} });
  const db = drizzle({ client: admin, schema }) as unknown as Db;
  const user = await createUser(db, {
    email: `faults-${Date.now()}@test.example`,
    password: "correct horse battery",
    accountName: "Faults",
  });
  accountId = user.accountId;
  const actor = { userId: user.userId, isStaff: false };
  await createCourierProfile(db, actor, {
    accountId,
    courier: "sandbox",
    name: "Sandbox",
    service: "STANDARD",
    settings: { timeoutMs: 2_000 },
  });
  apiKey = (await createApiKey(db, actor, { accountId, name: "faults", rateLimitPerMinute: 100_000 })).key;
  await createWebhookEndpoint(db, actor, { accountId, url: "http://127.0.0.1:4010/hooks" });
  const started = await startApp(cluster.url);
  app = started.child;
  base = `http://127.0.0.1:${started.port}`;
}, 120_000);

afterAll(async () => {
  printFigures("postgres faults: terminated backend, server stopped and started", figures);
  stopping = true;
  if (app && app.exitCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    app.kill("SIGTERM");
    // The pool's end waits up to 5 s for connections PostgreSQL closed under it.
    await Promise.race([exited, sleep(8_000)]);
    if (app.exitCode === null) app.kill("SIGKILL");
  }
  await admin?.end({ timeout: 5 });
  await cluster?.destroy();
}, 60_000);

afterEach(() => {
  expect(
    app.exitCode,
    `the app process must survive every fault; its last output:\n${appLog.slice(-3_000)}`,
  ).toBeNull();
});

/** App backends that are inside a transaction (or busy with orders): what a DBA's pg_terminate_backend would hit. */
const victims = (sql: Sql) => sql<{ pid: number; state: string }[]>`
  select pid, state from pg_stat_activity
  where datname = current_database() and pid <> pg_backend_pid() and application_name = ${APP}
    and (state like 'idle in transaction%' or backend_xid is not null or query ilike '%shipping_orders%')`;

describe("fault a: the backend of an in-flight batch terminated", () => {
  it("answers 503, stores none of the batch, and the same request retried stores all 500", async () => {
    const batch = Array.from({ length: 500 }, (_, i) => order({ ReferenceNumber: `KILL-${i}` }));
    const body = JSON.stringify(batch);
    // Hold tracking_events so the create's transaction stops after writing its orders and parcels: the
    // termination then lands inside the transaction every time, not only when the timing happens to allow.
    const blocker = await admin.reserve();
    let response: Sent;
    try {
      await blocker`begin`;
      await blocker`lock table tracking_events in share mode`;
      const pending = send("POST", "/api/v2/couriers/sandbox/shipping-orders", body);
      let waiting: { pid: number }[] = [];
      for (let i = 0; i < 600 && waiting.length === 0; i++) {
        await sleep(50);
        waiting = await admin<{ pid: number }[]>`
          select pid from pg_stat_activity
          where datname = current_database() and application_name = ${APP} and wait_event_type = 'Lock' and backend_xid is not null`;
      }
      expect(waiting, "the create never reached its insert of tracking events").not.toEqual([]);
      // Its orders are written but not committed: invisible here, and about to be rolled back.
      expect(await storedCount("KILL-")).toBe(0);
      const killed = await admin<
        { pid: number; ok: boolean }[]
      >`select pid, pg_terminate_backend(pid) as ok from (${victims(admin)}) v`;
      expect(killed.map((k) => k.pid)).toEqual(expect.arrayContaining(waiting.map((w) => w.pid)));
      response = await pending;
    } finally {
      await blocker`rollback`;
      blocker.release();
    }
    expect(response.status, JSON.stringify(response.body)).toBe(503);
    expect(response.contentType).toBe("application/problem+json");
    expect(response.retryAfter).toBeTruthy();
    expect(response.body).toMatchObject({ status: 503 });
    expect(await storedCount("KILL-")).toBe(0);

    const retry = await sendRetrying("POST", "/api/v2/couriers/sandbox/shipping-orders", body);
    expect(retry.status, `${JSON.stringify(retry.body)}\n${lastAppErrors()}`).toBe(200);
    expect((retry.body as Created).items).toHaveLength(500);
    expect((retry.body as Created).failed).toEqual([]);
    expect(await storedCount("KILL-", true)).toBe(500);
    expect(await storedCount("KILL-")).toBe(500);
  }, 90_000);

  it("terminations racing batches: every answer is 200 or 503, every batch all or nothing, every retry complete", async () => {
    const outcomes: { round: number; status: number; stored: number }[] = [];
    for (let round = 0; round < 4; round++) {
      const prefix = `RACE-${round}-`;
      const body = JSON.stringify(Array.from({ length: 200 }, (_, i) => order({ ReferenceNumber: `${prefix}${i}` })));
      let done = false;
      const pending = send("POST", "/api/v2/couriers/sandbox/shipping-orders", body).finally(() => {
        done = true;
      });
      // Terminate whatever app backend is inside a transaction, every few milliseconds, until the answer.
      const killer = (async () => {
        while (!done) {
          await admin`
            select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name = ${APP} and (state like 'idle in transaction%' or backend_xid is not null)`;
          await sleep(3);
        }
      })();
      const response = await pending;
      await killer;
      const stored = await storedCount(prefix, true);
      outcomes.push({ round, status: response.status, stored });
      expect([200, 503], JSON.stringify(response.body)).toContain(response.status);
      expect([0, 200]).toContain(stored);
      if (response.status === 200) expect(stored).toBe(200);
      if (response.status === 503) {
        expect(response.contentType).toBe("application/problem+json");
        const retry = await sendRetrying("POST", "/api/v2/couriers/sandbox/shipping-orders", body);
        expect(retry.status, `${JSON.stringify(retry.body)}\n${lastAppErrors()}`).toBe(200);
        expect(await storedCount(prefix, true)).toBe(200);
      }
    }
    figures.details.push(`racing(status/stored)=${outcomes.map((o) => `${o.status}/${o.stored}`).join(",")}`);
  }, 90_000);
});

describe("fault c: the backend terminated after the create's events were written", () => {
  /** What the create of orders `…TX-<n>` left: orders, refused attempts, events of each kind, deliveries, jobs. */
  async function traces() {
    const [row] = await admin<
      { orders: number; refused: number; created: number; rejected: number; deliveries: number; jobs: number }[]
    >`
      with ev as (
        select e.id, e.type from events e
        where e.account_id = ${accountId}
          and coalesce(e.data->'shippingOrder'->>'referenceNumber', e.data->>'referenceNumber') like '%TX-%')
      select
        (select count(*)::int from shipping_orders where account_id = ${accountId} and reference_number like 'TX-%') as orders,
        (select count(*)::int from refused_attempts where account_id = ${accountId} and reference_number like '%TX-%') as refused,
        (select count(*)::int from ev where type = 'shipping_order.created') as created,
        (select count(*)::int from ev where type = 'shipping_order.courier_rejected') as rejected,
        (select count(*)::int from webhook_deliveries d join ev on ev.id = d.event_id) as deliveries,
        (select count(*)::int from pgboss.job j join webhook_deliveries d on j.data->>'deliveryId' = d.id::text
           join ev on ev.id = d.event_id) as jobs`;
    return row!;
  }

  it("keeps nothing of it (no order, refused attempt, event, delivery or job), and the retry keeps each exactly once", async () => {
    // 40 orders the courier accepts and 10 it refuses: each refused attempt must commit with its event.
    const batch = [
      ...Array.from({ length: 40 }, (_, i) => order({ ReferenceNumber: `TX-${i}` })),
      ...Array.from({ length: 10 }, (_, i) => order({ ReferenceNumber: `COURIER-FAIL-TX-${i}` })),
    ];
    const body = JSON.stringify(batch);
    // Hold pg-boss's job table: the create's transaction stops at its last write, the delivery jobs of events it
    // has already written, so the termination lands after the events, not before them.
    const blocker = await admin.reserve();
    let response: Sent;
    try {
      await blocker`begin`;
      await blocker`lock table pgboss.job in share mode`;
      const pending = send("POST", "/api/v2/couriers/sandbox/shipping-orders", body);
      let waiting: { pid: number }[] = [];
      for (let i = 0; i < 600 && waiting.length === 0; i++) {
        await sleep(50);
        waiting = await admin<{ pid: number }[]>`
          select pid from pg_stat_activity
          where datname = current_database() and application_name = ${APP} and wait_event_type = 'Lock'
            and backend_xid is not null and query ilike '%pgboss.job%'`;
      }
      expect(waiting, "the create never reached its insert of delivery jobs").not.toEqual([]);
      expect(await traces()).toEqual({ orders: 0, refused: 0, created: 0, rejected: 0, deliveries: 0, jobs: 0 });
      await admin`select pg_terminate_backend(pid) from (${victims(admin)}) v`;
      response = await pending;
    } finally {
      await blocker`rollback`;
      blocker.release();
    }
    expect(response.status, JSON.stringify(response.body)).toBe(503);
    expect(await traces()).toEqual({ orders: 0, refused: 0, created: 0, rejected: 0, deliveries: 0, jobs: 0 });

    const retry = await sendRetrying("POST", "/api/v2/couriers/sandbox/shipping-orders", body);
    expect(retry.status, `${JSON.stringify(retry.body)}\n${lastAppErrors()}`).toBe(200);
    expect((retry.body as Created).items).toHaveLength(40);
    expect((retry.body as Created).failed).toHaveLength(10);
    expect(await traces()).toEqual({ orders: 40, refused: 10, created: 40, rejected: 10, deliveries: 50, jobs: 50 });
  }, 90_000);
});

describe("fault b: PostgreSQL stopped and started under load", () => {
  it("answers 503 problems while it is down, recovers without an app restart, and loses no order", async () => {
    type Record = { phase: "up" | "down" | "restarted"; op: string; sent: Sent };
    const records: Record[] = [];
    const acknowledged = new Map<string, string>();
    let phase: Record["phase"] = "up";
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        const ref = `LOAD-${n++}`;
        const at = phase;
        const created = await send("POST", "/api/v2/couriers/sandbox/shipping-orders", order({ ReferenceNumber: ref }));
        records.push({ phase: at, op: "create", sent: created });
        if (created.status === 200) {
          const id = (created.body as Created).items[0]!.id;
          acknowledged.set(ref, id);
          records.push({ phase: phase, op: "get", sent: await send("GET", `/api/v2/shipping-orders/${id}`) });
        }
        records.push({ phase: phase, op: "health", sent: await send("GET", "/api/health") });
        if (created.status !== 200) await sleep(50);
      }
    };
    const workers = Array.from({ length: 4 }, () => worker());
    const since = (p: Record["phase"]) => records.filter((r) => r.phase === p);

    /** Waits until `enough` holds of the records so far, or 20 s pass (then the assertions below say what is missing). */
    const until = async (enough: () => boolean) => {
      const deadline = performance.now() + 20_000;
      while (!enough() && performance.now() < deadline) await sleep(50);
    };
    const upCreated = () => since("up").filter((r) => r.op === "create" && r.sent.status === 200).length;
    await until(() => upCreated() >= 5);
    expect(upCreated()).toBeGreaterThan(0);
    await cluster.stop("fast");
    phase = "down";
    await until(() => since("down").filter((r) => r.op === "create").length >= 8);
    const downCreates = since("down").filter((r) => r.op === "create");
    const show = (r: Record) => `${r.phase} ${r.op} → ${r.sent.status} in ${Math.round(r.sent.ms)} ms`;
    expect(
      downCreates.length,
      `no create finished while down; last answers: ${records.slice(-8).map(show).join("; ")}`,
    ).toBeGreaterThan(0);
    await cluster.start();
    phase = "restarted";
    // Recovery: the same app process answers again.
    await until(() => since("restarted").filter((r) => r.op === "create" && r.sent.status === 200).length >= 10);
    stop = true;
    await Promise.all(workers);

    const failures = records.filter((r) => r.sent.status !== 200);
    const wrong = failures.filter(
      (r) => r.sent.status !== 503 || (r.op !== "health" && r.sent.contentType !== "application/problem+json"),
    );
    expect(
      wrong.map((r) => `${r.phase} ${r.op} → ${r.sent.status} ${JSON.stringify(r.sent.body).slice(0, 300)}`),
    ).toEqual([]);
    expect(since("down").filter((r) => r.op === "create" && r.sent.status === 503).length).toBeGreaterThan(0);
    expect(
      since("down")
        .filter((r) => r.op === "health")
        .every((r) => r.sent.status === 503 || r.sent.status === 200),
    ).toBe(true);
    const slowest = Math.max(...records.map((r) => r.sent.ms));
    const slow = records.filter((r) => r.sent.ms > 10_000).map(show);
    expect(slow, "no request may hang while the database is down").toEqual([]);
    expect(since("restarted").filter((r) => r.op === "create" && r.sent.status === 200).length).toBeGreaterThanOrEqual(
      10,
    );

    // No order lost: every create that answered 200 is there, through the same app process and in the table.
    const missing: string[] = [];
    for (const [ref, id] of acknowledged) {
      const got = await send("GET", `/api/v2/shipping-orders/${id}`);
      if (got.status !== 200) missing.push(`${ref} (${id}) → ${got.status}`);
    }
    const [row] = await admin<{ n: number }[]>`
      select count(*)::int as n from shipping_orders where account_id = ${accountId} and deleted_at is null and id = any(${[...acknowledged.values()]}::uuid[])`;
    figures.ordersLost += missing.length;
    expect(missing).toEqual([]);
    expect(row!.n).toBe(acknowledged.size);
    figures.details.push(
      `stopStart(requests=${records.length} 503WhileDown=${since("down").filter((r) => r.sent.status === 503).length} acknowledged=${acknowledged.size} slowestMs=${Math.round(slowest)})`,
    );
  }, 90_000);
});
