import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import PgBoss from "pg-boss";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { createUser } from "@/server/services/accounts/create-user";
import { recordEvents } from "@/server/services/events/record-events";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { deliverWebhook, type DeliveryOptions } from "@/server/services/webhooks/deliver-webhook";
import { migrateCluster, startCluster, type Cluster } from "@/test/pg-cluster";
import { eventually } from "@/test/webhook-receiver";
import { startDeliveryPump } from "./delivery-pump";
import { dropOrphanDeliveryQueues, ensureDeliveryQueues } from "@/server/queue/delivery-queues";
import { enqueueJobs } from "@/server/queue/enqueue-jobs";
import { QUEUES, type DeliveryJob } from "@/server/queue/queues";
import { jobSql } from "@/server/queue/sql-adapter";
import { startWorker, workerOptionsFromEnv, type WorkerOptions } from "./worker";

/**
 * The delivery pump and the attempt's fencing, on a PostgreSQL cluster of this file's own: no worker of another
 * test file takes these jobs, so what a receiver sees (how many at once, how often) is this process's doing.
 * Counts and orderings are asserted, not speeds: a hanging receiver's attempts last the whole (long) timeout, so
 * "before the first of them ended" is a wide, machine-independent window.
 */

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.WEBHOOK_TIMEOUT_MS = "10000";

let cluster: Cluster;
let client: Sql;
let db: Db;

beforeAll(async () => {
  cluster = await startCluster();
  await migrateCluster(cluster.url);
  client = postgres(cluster.url, { max: 10, onnotice: () => {} });
  db = drizzle({ client, schema }) as unknown as Db;
}, 120_000);

afterAll(async () => {
  await client?.end({ timeout: 5 });
  await cluster?.destroy();
}, 60_000);

type Hit = { eventId: string; path: string; at: number; closedAt?: number; openAtArrival: number };

/**
 * A loopback receiver that records every request, how many were open when it arrived (per path: one path per
 * endpoint), and when each closed; `answer` decides: a status now, a status after a delay, a promise, or never.
 */
async function startReceiver() {
  const open = new Map<string, number>();
  const hits: Hit[] = [];
  const pending = new Set<ServerResponse>();
  let answer: (hit: Hit) => number | "hang" | Promise<number> = () => 200;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = req.url ?? "/";
      open.set(path, (open.get(path) ?? 0) + 1);
      const hit: Hit = {
        eventId: String(req.headers["webhook-id"]),
        path,
        at: Date.now(),
        openAtArrival: open.get(path)!,
      };
      hits.push(hit);
      res.on("close", () => {
        hit.closedAt = Date.now();
        open.set(path, open.get(path)! - 1);
        pending.delete(res);
      });
      pending.add(res);
      const reply = answer(hit);
      if (reply === "hang") return;
      void Promise.resolve(reply).then((status) => res.writeHead(status).end("ok"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    open: (path?: string) =>
      path === undefined ? [...open.values()].reduce((a, b) => a + b, 0) : (open.get(path) ?? 0),
    set answer(f: typeof answer) {
      answer = f;
    },
    /** Cuts every request still open (the attempts end at once with a connection error). */
    async close() {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function account(name: string) {
  const user = await createUser(db, {
    email: `pump-${crypto.randomUUID()}@test.example`,
    password: "correct horse battery",
    accountName: name,
  });
  return { ...user, actor: { userId: user.userId, isStaff: false } };
}

const events = (accountId: string, n: number) =>
  db.transaction((tx) =>
    recordEvents(
      tx,
      accountId,
      Array.from({ length: n }, (_, i) => ({
        type: "shipping_order.courier_rejected",
        referenceSource: "api",
        sourceIdentifier: "default",
        data: { referenceNumber: `P-${i}`, code: "COURIER_REJECTED" },
      })),
    ),
  );

const deliveriesOf = (endpointId: string) =>
  db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, endpointId));

/** Every pg-boss job ever made for these deliveries, in any queue and state. */
const jobsOf = (deliveryIds: string[]) =>
  queryRows<{ id: string; state: string; data: DeliveryJob }>(
    db,
    `select id, state, data from pgboss.job where data->>'deliveryId' = any($1::text[])`,
    [`{${deliveryIds.join(",")}}`],
  );

function worker(overrides: Partial<WorkerOptions> & { timeoutMs?: number; retrySchedule?: number[] } = {}) {
  const base = workerOptionsFromEnv();
  const { timeoutMs, retrySchedule, ...rest } = overrides;
  return startWorker(db, {
    ...base,
    pollingSeconds: 0.5,
    maintenanceSeconds: 1,
    ...rest,
    delivery: {
      ...base.delivery,
      timeoutMs: timeoutMs ?? base.delivery.timeoutMs,
      retrySchedule: retrySchedule ?? [60],
    },
  });
}

describe("fair fetch between accounts", () => {
  it("delivers another account's events while one account's endpoints hang under a flood, holding only its cap", async () => {
    const hostile = await startReceiver();
    const healthy = await startReceiver();
    hostile.answer = () => "hang";
    const a = await account("Hostile");
    const b = await account("Healthy");
    const aEndpoints = [];
    for (let i = 0; i < 4; i++)
      aEndpoints.push(await createWebhookEndpoint(db, a.actor, { url: `${hostile.base}/a${i}` }));
    await createWebhookEndpoint(db, b.actor, { url: `${healthy.base}/b` });
    // The flood is queued first: 120 of A's jobs sit ahead of B's in any one global queue.
    await events(a.accountId, 30);
    const running = await worker({ deliveryConcurrency: 16, deliveryPerAccount: 4, deliveryPerEndpoint: 8 });
    try {
      await eventually(() => hostile.open() >= 4, 30_000, "A's attempts to hang");
      const bEvents = await events(b.accountId, 10);
      await eventually(() => healthy.hits.length >= 10, 60_000, "B's deliveries");
      const bDone = Math.max(...healthy.hits.map((h) => h.at));
      // Every one of B's events arrived while all of A's attempts were still hanging (the 10 s timeout had not
      // ended the first of them): B waited for none of A's. A never had more than its account cap in flight.
      const firstEnded = Math.min(...hostile.hits.map((h) => h.closedAt ?? Infinity));
      expect(bDone).toBeLessThan(firstEnded);
      expect(new Set(healthy.hits.map((h) => h.eventId))).toEqual(new Set(bEvents));
      expect(Math.max(...hostile.hits.map((h) => h.openAtArrival))).toBeLessThanOrEqual(4);
      expect(running.pump.inFlight().get(a.accountId)).toBe(4);
    } finally {
      await hostile.close();
      await healthy.close();
      await running.stop();
      await db.delete(schema.webhookEndpoints).where(
        inArray(
          schema.webhookEndpoints.id,
          aEndpoints.map((e) => e.id),
        ),
      );
    }
  }, 120_000);
});

describe("full pace for a slow receiver", () => {
  it("keeps 8 attempts in flight to a receiver answering in 1.5 s, and hands none back", async () => {
    const slow = await startReceiver();
    slow.answer = () => new Promise((resolve) => setTimeout(() => resolve(200), 1500));
    const a = await account("Slow receiver");
    const endpoint = await createWebhookEndpoint(db, a.actor, { url: `${slow.base}/slow` });
    await events(a.accountId, 24);
    const running = await worker({ deliveryPerEndpoint: 8 });
    try {
      const rows = await eventually(async () => {
        const list = await deliveriesOf(endpoint.id);
        return list.every((d) => d.status === "succeeded") && list;
      }, 90_000);
      expect(rows).toHaveLength(24);
      // Each event POSTed once, each delivery made in its first attempt, and at most 8 (and at some point 8) at once.
      expect(slow.hits).toHaveLength(24);
      expect(rows.every((d) => d.attempts === 1)).toBe(true);
      expect(Math.max(...slow.hits.map((h) => h.openAtArrival))).toBe(8);
      // One job per delivery: none was fetched and put back (deferred) because its endpoint was judged slow.
      expect(await jobsOf(rows.map((d) => d.id))).toHaveLength(24);
    } finally {
      await running.stop();
      await slow.close();
    }
  }, 120_000);
});

describe("caps across processes", () => {
  it("two processes keep at most 8 attempts in flight to one slow receiver, and reach 8", async () => {
    const slow = await startReceiver();
    slow.answer = () => new Promise((resolve) => setTimeout(() => resolve(200), 1000));
    const a = await account("Two processes");
    const endpoint = await createWebhookEndpoint(db, a.actor, { url: `${slow.base}/shared` });
    await events(a.accountId, 40);
    // Two "processes": each its own connections, pg-boss and pump, sharing only the database.
    const otherClient = postgres(cluster.url, { max: 10, onnotice: () => {} });
    const otherDb = drizzle({ client: otherClient, schema }) as unknown as Db;
    const caps = { deliveryConcurrency: 16, deliveryPerAccount: 16, deliveryPerEndpoint: 8 };
    const first = await worker(caps);
    const base = workerOptionsFromEnv();
    const second = await startWorker(otherDb, {
      ...base,
      pollingSeconds: 0.5,
      maintenanceSeconds: 1,
      ...caps,
      delivery: { ...base.delivery, retrySchedule: [60] },
    });
    try {
      const rows = await eventually(async () => {
        const list = await deliveriesOf(endpoint.id);
        return list.every((d) => d.status === "succeeded") && list;
      }, 90_000);
      expect(rows).toHaveLength(40);
      // Each event POSTed once, in its first attempt (a refused claim spends none), never more than 8 at once
      // between the two processes, and at some point 8 (full pace).
      expect(slow.hits).toHaveLength(40);
      expect(rows.every((d) => d.attempts === 1)).toBe(true);
      expect(Math.max(...slow.hits.map((h) => h.openAtArrival))).toBe(8);
    } finally {
      await first.stop();
      await second.stop();
      await otherClient.end({ timeout: 5 });
      await slow.close();
    }
  }, 120_000);
});

describe("the claim under the endpoint's cap", () => {
  it("of 12 attempts claimed at once against a cap of 8, 8 are made and 4 refused unwritten", async () => {
    const receiver = await startReceiver();
    let release = () => {};
    const held = new Promise<number>((resolve) => (release = () => resolve(200)));
    receiver.answer = () => held;
    const a = await account("Racing claims");
    const endpoint = await createWebhookEndpoint(db, a.actor, { url: `${receiver.base}/race` });
    await events(a.accountId, 12);
    const rows = await deliveriesOf(endpoint.id);
    const jobs = await jobsOf(rows.map((d) => d.id));
    expect(jobs).toHaveLength(12);
    const options: DeliveryOptions = { timeoutMs: 10_000, allowPrivate: true, retrySchedule: [60] };
    try {
      // As many processes racing for one endpoint: every claim at once, on separate connections.
      const results: Awaited<ReturnType<typeof deliverWebhook>>[] = [];
      const runs = jobs.map((job) =>
        deliverWebhook(db, { id: job.id, data: job.data }, options, { endpointCap: 8 }).then((r) => {
          results.push(r);
          return r;
        }),
      );
      await eventually(() => results.length + receiver.hits.length >= 12, 30_000, "every claim to be made or refused");
      expect(receiver.hits).toHaveLength(8);
      expect(results.filter((r) => !r.claimed && r.refused)).toHaveLength(4);
      // A refused claim wrote nothing: its attempt is still to make, with no token or lease.
      const waiting = (await deliveriesOf(endpoint.id)).filter((d) => d.jobId === null);
      expect(waiting).toHaveLength(4);
      expect(waiting.every((d) => d.attempts === 0 && d.status === "pending" && d.leaseUntil === null)).toBe(true);
      release();
      expect((await Promise.all(runs)).filter((r) => r.claimed)).toHaveLength(8);
    } finally {
      release();
      await receiver.close();
    }
  }, 60_000);
});

describe("one POST per scheduled attempt", () => {
  const options: DeliveryOptions = { timeoutMs: 10_000, allowPrivate: true, retrySchedule: [60] };

  it("an expired run still POSTing and pg-boss's retry of the same job (same id): one POST", async () => {
    const receiver = await startReceiver();
    let release = () => {};
    const held = new Promise<number>((resolve) => (release = () => resolve(200)));
    receiver.answer = () => held;
    const a = await account("Expired run");
    const endpoint = await createWebhookEndpoint(db, a.actor, { url: `${receiver.base}/x` });
    const [eventId] = await events(a.accountId, 1);
    const [delivery] = await deliveriesOf(endpoint.id);
    const [job] = await jobsOf([delivery!.id]);
    const run = { id: job!.id, data: job!.data };
    try {
      // The first run claims the attempt and POSTs; the receiver holds its answer (the job "expires" meanwhile).
      const first = deliverWebhook(db, run, options);
      await eventually(() => receiver.hits.length >= 1, 30_000, "the first run's POST");
      // pg-boss retries the expired job: the same id, the same data.
      let retryEnded = false;
      const retry = deliverWebhook(db, run, options).finally(() => (retryEnded = true));
      await eventually(() => retryEnded || receiver.hits.length >= 2, 30_000, "the retry to end or POST");
      expect(receiver.hits.filter((h) => h.eventId === eventId)).toHaveLength(1);
      release();
      expect(await retry).toEqual({ claimed: false });
      expect(await first).toMatchObject({ claimed: true, outcome: { ok: true, status: 200 } });
      const [after] = await deliveriesOf(endpoint.id);
      expect(after).toMatchObject({ status: "succeeded", attempts: 1, jobId: null });
    } finally {
      release();
      await receiver.close();
    }
  }, 60_000);

  it("a failure after the POST (recording its outcome) does not make pg-boss retry the attempt into a second POST", async () => {
    const receiver = await startReceiver();
    receiver.answer = () => 500;
    const a = await account("Throw after POST");
    const endpoint = await createWebhookEndpoint(db, a.actor, { url: `${receiver.base}/x` });
    // The first write of an outcome for this endpoint fails (the database went away at that moment, say).
    await db.execute(sql.raw(`create sequence if not exists fail_once_seq`));
    await db.execute(
      sql.raw(`create or replace function fail_once() returns trigger language plpgsql as $$
        begin
          if old.endpoint_id = '${endpoint.id}' and old.job_id is not null and new.job_id is null
             and nextval('fail_once_seq') = 1 then
            raise exception 'injected: recording the outcome failed';
          end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql.raw(`create trigger fail_once before update on webhook_deliveries for each row execute function fail_once()`),
    );
    const running = await worker({ retrySchedule: [60] });
    try {
      const [eventId] = await events(a.accountId, 1);
      const [delivery] = await eventually(async () => {
        const rows = await deliveriesOf(endpoint.id);
        return rows.length === 1 && rows;
      });
      // Wait until pg-boss is done with every job of this delivery (the failed one and its retries), or a second POST.
      await eventually(
        async () =>
          receiver.hits.length >= 2 ||
          (receiver.hits.length === 1 && (await jobsOf([delivery!.id])).every((j) => j.state === "completed")),
        60_000,
        "the delivery's jobs to settle",
      );
      expect(receiver.hits.filter((h) => h.eventId === eventId)).toHaveLength(1);
      // The attempt stays claimed (its outcome unknown): the sweep finishes it after its lease, on the schedule.
      const [after] = await deliveriesOf(endpoint.id);
      expect(after).toMatchObject({ status: "pending", attempts: 1 });
      expect(after!.jobId).not.toBeNull();
    } finally {
      await db.execute(sql.raw(`drop trigger if exists fail_once on webhook_deliveries`));
      await running.stop();
      await receiver.close();
    }
  }, 120_000);
});

describe("jobs queued before per-endpoint queues", () => {
  it("moves them from the legacy queue to their endpoint's queue unsent, and each is POSTed once", async () => {
    const receiver = await startReceiver();
    const a = await account("Legacy");
    const endpoint = await createWebhookEndpoint(db, a.actor, { url: `${receiver.base}/legacy` });
    const eventIds = await events(a.accountId, 3);
    const rows = await deliveriesOf(endpoint.id);
    // As an older version queued them: on the global queue, one without `endpointId`; the new jobs are dropped.
    await db.execute(sql`delete from pgboss.job where name = ${`webhook-delivery.${endpoint.id}`}`);
    await enqueueJobs(
      db,
      rows.map((d, i) => ({
        name: QUEUES.webhookDelivery,
        data: i === 0 ? { deliveryId: d.id, attempt: 0 } : { deliveryId: d.id, attempt: 0, endpointId: endpoint.id },
      })),
    );
    const running = await worker();
    try {
      await eventually(async () => (await deliveriesOf(endpoint.id)).every((d) => d.status === "succeeded"), 30_000);
      expect(receiver.hits.map((h) => h.eventId).sort()).toEqual([...eventIds].sort());
      expect((await deliveriesOf(endpoint.id)).every((d) => d.attempts === 1)).toBe(true);
    } finally {
      await running.stop();
      await receiver.close();
    }
    // The endpoint deleted, the sweep drops its queue (the partition); a missing queue is made again.
    const queue = `webhook-delivery.${endpoint.id}`;
    const queues = () => queryRows<{ name: string }>(db, `select name from pgboss.queue where name = $1`, [queue]);
    expect(await ensureDeliveryQueues(db)).toBe(0);
    await db.delete(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, endpoint.id));
    expect(await dropOrphanDeliveryQueues(db)).toBeGreaterThanOrEqual(1);
    expect(await queues()).toHaveLength(0);
  }, 60_000);
});

describe("stopping", () => {
  it("lets a claimed attempt finish and records it, and hands a fetched, unclaimed job back unsent", async () => {
    const receiver = await startReceiver();
    let release = () => {};
    const held = new Promise<number>((resolve) => (release = () => resolve(200)));
    receiver.answer = (hit) => (hit.path === "/one" ? held : 200);
    const a = await account("Stopping");
    const one = await createWebhookEndpoint(db, a.actor, { url: `${receiver.base}/one` });
    const two = await createWebhookEndpoint(db, a.actor, { url: `${receiver.base}/two` });
    const boss = new PgBoss({ db: jobSql(db), supervise: false, schedule: false, migrate: false });
    boss.on("error", () => {});
    await boss.start();
    // The fetch that returns endpoint two's job is held until the pump has been told to stop.
    let reachedGate = () => {};
    const atGate = new Promise<void>((resolve) => (reachedGate = resolve));
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let gated = false;
    const gatedBoss = new Proxy(boss, {
      get(target, property) {
        if (property === "fetch")
          return async (name: string, fetchOptions: PgBoss.FetchOptions) => {
            const jobs = await target.fetch<DeliveryJob>(name, fetchOptions);
            if (!gated && jobs.some((j) => j.data.endpointId === two.id)) {
              gated = true;
              reachedGate();
              await gate;
            }
            return jobs;
          };
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const pumpOptions = {
      delivery: { timeoutMs: 10_000, allowPrivate: true, retrySchedule: [60] },
      concurrency: 8,
      perAccount: 8,
      perEndpoint: 8,
      pollingSeconds: 0.5,
      log: () => {},
    };
    const pump = startDeliveryPump(gatedBoss, db, pumpOptions);
    try {
      await db.transaction((tx) =>
        recordEvents(
          tx,
          a.accountId,
          [{ type: "shipping_order.courier_rejected", referenceSource: "api", sourceIdentifier: "default", data: {} }],
          { endpoint: one },
        ),
      );
      await eventually(() => receiver.hits.some((h) => h.path === "/one"), 30_000, "endpoint one's POST");
      const [twoEvent] = await db.transaction((tx) =>
        recordEvents(
          tx,
          a.accountId,
          [{ type: "shipping_order.courier_rejected", referenceSource: "api", sourceIdentifier: "default", data: {} }],
          { endpoint: two },
        ),
      );
      await atGate;
      const stopped = pump.stop(30_000);
      openGate();
      // Endpoint two's job is back in its queue, unsent, before the attempt to endpoint one ends.
      await eventually(async () => {
        const [d] = await deliveriesOf(two.id);
        const jobs = await jobsOf([d!.id]);
        return jobs.some((j) => j.state === "created") && jobs.length === 2;
      }, 30_000);
      release();
      await stopped;
      const [oneDelivery] = await deliveriesOf(one.id);
      expect(oneDelivery).toMatchObject({ status: "succeeded", attempts: 1, responseStatus: 200 });
      expect(receiver.hits.filter((h) => h.path === "/two")).toHaveLength(0);
      const [twoDelivery] = await deliveriesOf(two.id);
      expect(twoDelivery).toMatchObject({ status: "pending", attempts: 0 });

      // The next process makes that attempt, once.
      const next = startDeliveryPump(boss, db, pumpOptions);
      try {
        await eventually(async () => (await deliveriesOf(two.id))[0]?.status === "succeeded", 30_000);
      } finally {
        await next.stop(30_000);
      }
      expect(receiver.hits.filter((h) => h.eventId === twoEvent)).toHaveLength(1);
      expect((await deliveriesOf(two.id))[0]).toMatchObject({ attempts: 1 });
    } finally {
      openGate();
      release();
      await boss.stop({ graceful: false, close: false });
      await receiver.close();
    }
  }, 120_000);
});
