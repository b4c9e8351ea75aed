import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres, { type Sql } from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { createUser } from "@/server/services/accounts/create-user";
import { recordEvents } from "@/server/services/events/record-events";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { queryRows } from "@/db/client";
import { enqueueJobs } from "@/server/queue/enqueue-jobs";
import { QUEUES } from "@/server/queue/queues";
import { attemptLeaseMs } from "@/server/services/webhooks/deliver-webhook";
import { migrateCluster, startCluster, type Cluster } from "@/test/pg-cluster";
import { eventually, startReceiver, type Receiver } from "@/test/webhook-receiver";

/**
 * Workers in processes of their own (`npm run worker`) on a throwaway PostgreSQL cluster, so it runs in every
 * mode: a worker killed (SIGKILL) in the middle of an attempt leaves the attempt claimed; once its lease ends the
 * sweep counts it failed and schedules the next, which another worker makes, and the event arrives. A worker
 * stopped with SIGTERM lets its in-flight attempt end and records it before exiting.
 */

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.WEBHOOK_TIMEOUT_MS = "2000";

let cluster: Cluster;
let admin: Sql;
let db: Db;
let hook: Receiver;
const workers: ChildProcess[] = [];

function startWorkerProcess(extraEnv: Record<string, string> = {}): { child: ChildProcess; log: () => string } {
  let log = "";
  // Node itself, not the tsx CLI, so the signals reach the worker with no relay in between.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: cluster.url,
      PGLITE_SNAPSHOT: "",
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "sop-worker-")),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_TIMEOUT_MS: "2000",
      WEBHOOK_RETRY_SCHEDULE: "0.2,0.2,0.2",
      WORKER_POLLING_SECONDS: "0.5",
      WORKER_MAINTENANCE_SECONDS: "1",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
  workers.push(child);
  return { child, log: () => log };
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code)),
  );

beforeAll(async () => {
  cluster = await startCluster();
  await migrateCluster(cluster.url);
  admin = postgres(cluster.url, { max: 3, onnotice: () => {} });
  db = drizzle({ client: admin, schema }) as unknown as Db;
  hook = await startReceiver();
}, 120_000);

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
  await hook?.close();
  await admin?.end({ timeout: 5 });
  await cluster?.destroy();
}, 60_000);

async function endpointAndEvent(url = hook.url): Promise<{ eventId: string; secret: string }> {
  const user = await createUser(db, {
    email: `crash-${crypto.randomUUID()}@test.example`,
    password: "correct horse battery",
    accountName: "Crash",
  });
  const endpoint = await createWebhookEndpoint(db, { userId: user.userId, isStaff: false }, { url });
  const [eventId] = await db.transaction((tx) =>
    recordEvents(tx, user.accountId, [
      {
        type: "shipping_order.courier_rejected",
        referenceSource: "api",
        sourceIdentifier: "default",
        data: { referenceNumber: "R-1", code: "COURIER_REJECTED" },
      },
    ]),
  );
  return { eventId: eventId!, secret: endpoint.secret };
}

describe("workers in their own processes", () => {
  it("finishes an attempt whose worker was killed mid-delivery after its lease, and the next attempt delivers", async () => {
    const { eventId, secret } = await endpointAndEvent();
    hook.reply = (r) => (r.headers["webhook-id"] === eventId && hook.received.length === 1 ? "hang" : 200);
    const first = startWorkerProcess();
    await eventually(
      () => hook.received.some((r) => r.headers["webhook-id"] === eventId),
      60_000,
      `the first attempt\n${first.log()}`,
    );
    first.child.kill("SIGKILL");
    await exitOf(first.child);
    const second = startWorkerProcess();
    // The sweep finishes the claimed attempt once its lease (2 s timeout + margin) ended. Its cron fires once a
    // minute; the test sends the same job every second instead, so the run waits for the lease, not the clock.
    let swept = 0;
    const [killed, retried] = await eventually(
      async () => {
        const mine = hook.received.filter((r) => r.headers["webhook-id"] === eventId);
        if (mine.length >= 2) return mine;
        if (Date.now() - swept > 1000) {
          swept = Date.now();
          await enqueueJobs(db, [{ name: QUEUES.webhookSweep }]);
        }
        return false;
      },
      150_000,
      `the next attempt\n${second.log()}`,
    );
    // Not re-POSTed at once: only after the killed attempt's lease ended.
    expect(retried!.at - killed!.at).toBeGreaterThanOrEqual(attemptLeaseMs(2000));
    expect(new Webhook(secret).verify(retried!.body, retried!.headers as Record<string, string>)).toMatchObject({
      id: eventId,
    });
    const [delivery] = await eventually(async () => {
      const rows = await db
        .select()
        .from(schema.webhookDeliveries)
        .where(eq(schema.webhookDeliveries.eventId, eventId));
      return rows[0]?.status === "succeeded" && rows;
    });
    // The killed attempt counted (outcome unknown), the next one succeeded: each POST was its own attempt.
    expect(delivery!.attempts).toBe(2);
    second.child.kill("SIGTERM");
    expect(await exitOf(second.child)).toBe(0);
  }, 240_000);

  it("on SIGTERM lets the attempt in flight end, records it, and exits", async () => {
    const { eventId } = await endpointAndEvent();
    hook.reply = (r) => (r.headers["webhook-id"] === eventId ? "hang" : 200);
    const worker = startWorkerProcess();
    await eventually(
      () => hook.received.some((r) => r.headers["webhook-id"] === eventId),
      60_000,
      `the attempt\n${worker.log()}`,
    );
    worker.child.kill("SIGTERM");
    expect(await exitOf(worker.child)).toBe(0);
    const [delivery] = await db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.eventId, eventId));
    // The 2 s timeout ended the attempt before the worker left: recorded, with the next attempt queued.
    expect(delivery).toMatchObject({ attempts: 1, status: "pending", responseStatus: null });
    expect(delivery!.lastError).toContain("no answer");
  }, 120_000);

  it("POSTs each scheduled attempt exactly once with two workers, even when the receiver never answers", async () => {
    const { eventId } = await endpointAndEvent();
    hook.reply = (r) => (r.headers["webhook-id"] === eventId ? "hang" : 200);
    const pair = [startWorkerProcess(), startWorkerProcess()];
    const mine = () => hook.received.filter((r) => r.headers["webhook-id"] === eventId);
    // The 2 s timeout ends each attempt; the schedule (0.2 s × 3) makes four attempts, then the delivery fails.
    const [failed] = await eventually(async () => {
      const rows = await db
        .select()
        .from(schema.webhookDeliveries)
        .where(eq(schema.webhookDeliveries.eventId, eventId));
      return rows[0]?.status === "failed" && rows;
    }, 60_000);
    expect(failed).toMatchObject({ attempts: 4, jobId: null });
    // Every job of the delivery is done (none left to come back and POST), and each attempt was POSTed once.
    await eventually(async () => {
      const live = await queryRows<{ n: number }>(
        db,
        `select count(*)::int as n from pgboss.job where data->>'deliveryId' = $1 and state < 'completed'`,
        [failed!.id],
      );
      return live[0]!.n === 0 || mine().length > 4;
    }, 60_000);
    expect(mine()).toHaveLength(4);
    const [after] = await db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.eventId, eventId));
    expect(after).toMatchObject({ attempts: 4, status: "failed" });
    for (const w of pair) w.child.kill("SIGTERM");
    for (const w of pair) expect(await exitOf(w.child)).toBe(0);
  }, 120_000);

  it("keeps delivering to a healthy endpoint while another one hangs for the whole timeout", async () => {
    const slow = await startReceiver();
    const healthy = await startReceiver();
    slow.reply = () => "hang";
    try {
      const user = await createUser(db, {
        email: `slow-${crypto.randomUUID()}@test.example`,
        password: "correct horse battery",
        accountName: "Slow neighbour",
      });
      const actor = { userId: user.userId, isStaff: false };
      await createWebhookEndpoint(db, actor, { url: slow.url });
      await createWebhookEndpoint(db, actor, { url: healthy.url });
      // A 10 s timeout: with attempts run in fetched batches, every batch would wait for the hanging receiver.
      const worker = startWorkerProcess({ WEBHOOK_TIMEOUT_MS: "10000", WORKER_POLLING_SECONDS: "0.5" });
      await eventually(() => worker.log().includes("worker: running"), 60_000, "the worker to start");
      const created = new Map<string, number>();
      for (let i = 0; i < 60; i++) {
        const [id] = await db.transaction((tx) =>
          recordEvents(tx, user.accountId, [
            {
              type: "shipping_order.courier_rejected",
              referenceSource: "api",
              sourceIdentifier: "default",
              data: { referenceNumber: `R-${i}`, code: "COURIER_REJECTED" },
            },
          ]),
        );
        created.set(id!, Date.now());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await eventually(() => healthy.received.length >= 60, 60_000, `healthy deliveries\n${worker.log()}`);
      const lags = healthy.received
        .map((r) => r.at - created.get(String(r.headers["webhook-id"]))!)
        .sort((a, b) => a - b);
      // Well under the 10 s a hanging neighbour would impose; the bench measures the real figure (p99 < 1 s).
      expect(lags.at(-1)!).toBeLessThan(5000);
      expect(new Set(healthy.received.map((r) => r.headers["webhook-id"])).size).toBe(60);
      worker.child.kill("SIGTERM");
      expect(await exitOf(worker.child)).toBe(0);
    } finally {
      await slow.close();
      await healthy.close();
    }
  }, 120_000);
});
