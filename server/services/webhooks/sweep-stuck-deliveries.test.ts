import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, queryRows, type Db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { deliveryQueue, type DeliveryJob } from "@/server/queue/queues";
import { createUser } from "@/server/services/accounts/create-user";
import { recordEvents } from "@/server/services/events/record-events";
import { pollUntil } from "@/test/helpers";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverWebhook } from "./deliver-webhook";
import { STUCK, sweepStuckDeliveries, UNKNOWN_OUTCOME } from "./sweep-stuck-deliveries";

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

let db: Db;
let hook: Receiver;

beforeAll(async () => {
  db = await getDb();
  hook = await startReceiver();
});
afterAll(() => hook?.close());

const liveJobs = (delivery: { id: string; endpointId: string }) =>
  queryRows<{ id: string; data: DeliveryJob; startAfter: Date }>(
    db,
    `select id, data, start_after as "startAfter" from pgboss.job
     where name = $1 and state < 'completed' and data->>'deliveryId' = $2`,
    [deliveryQueue(delivery.endpointId), delivery.id],
  );

const SWEEP = { graceSeconds: 60, retrySchedule: [300, 1800] };

async function pendingDelivery(name: string) {
  const user = await createUser(db, {
    email: `sweep-${crypto.randomUUID()}@test.example`,
    password: "correct horse battery",
    accountName: name,
  });
  await createWebhookEndpoint(db, { userId: user.userId, isStaff: false }, { url: hook.url });
  const [eventId] = await db.transaction((tx) =>
    recordEvents(tx, user.accountId, [
      {
        type: "shipping_order.courier_rejected",
        referenceSource: "api",
        sourceIdentifier: "default",
        data: { referenceNumber: "SWEEP-1", code: "COURIER_REJECTED" },
      },
    ]),
  );
  const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId!));
  return { eventId: eventId!, delivery: delivery! };
}

it("re-queues a pending delivery whose job pg-boss gave up, once, and the attempt is then made", async () => {
  const { eventId, delivery } = await pendingDelivery("Sweep");
  const [job] = await liveJobs(delivery);
  expect(job).toBeDefined();

  // A live job carries it: nothing to sweep, however overdue.
  await db.execute(
    sql`update webhook_deliveries set next_attempt_at = now() - interval '1 hour' where id = ${delivery.id}`,
  );
  await sweepStuckDeliveries(db, SWEEP);
  expect((await liveJobs(delivery)).map((j) => j.id)).toEqual([job!.id]);

  // pg-boss's retries are spent (the job ends `failed`): the delivery would stay pending with nobody to move it.
  await db.execute(sql`update pgboss.job set state = 'failed', retry_count = retry_limit where id = ${job!.id}`);
  expect(await liveJobs(delivery)).toHaveLength(0);
  // (The sweep is global: other test files' deliveries may share this database, so its own delivery is checked.)
  await sweepStuckDeliveries(db, SWEEP);
  await sweepStuckDeliveries(db, SWEEP);
  expect(await liveJobs(delivery)).toHaveLength(1);
  const [requeued] = await liveJobs(delivery);
  expect(requeued!.data).toMatchObject({ deliveryId: delivery.id, attempt: 0 });

  await deliverWebhook(db, requeued!, { timeoutMs: 2000, allowPrivate: true, retrySchedule: [1] });
  expect(hook.received.filter((r) => r.headers["webhook-id"] === eventId)).toHaveLength(1);
  const [after] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
  expect(after).toMatchObject({ status: "succeeded", attempts: 1, jobId: null });
});

it("leaves alone a delivery that is pending but not yet overdue", async () => {
  const { delivery } = await pendingDelivery("Sweep not due");
  const [job] = await liveJobs(delivery);
  await db.execute(sql`update pgboss.job set state = 'failed', retry_count = retry_limit where id = ${job!.id}`);
  await db.execute(
    sql`update webhook_deliveries set next_attempt_at = now() - interval '10 seconds' where id = ${delivery.id}`,
  );
  await sweepStuckDeliveries(db, { ...SWEEP, graceSeconds: 3600 });
  expect(await liveJobs(delivery)).toHaveLength(0);
});

it("counts an attempt whose worker died (lease ended, no outcome) as failed and schedules the next: no re-POST now", async () => {
  const { eventId, delivery } = await pendingDelivery("Sweep lease");
  const [job] = await liveJobs(delivery);
  // A worker claimed the attempt (as deliver-webhook.ts does) and died before recording anything.
  await db.execute(sql`update pgboss.job set state = 'completed' where id = ${job!.id}`);
  await db.execute(
    sql`update webhook_deliveries set attempts = 1, job_id = gen_random_uuid(), last_attempt_at = now(),
        lease_until = now() + interval '1 hour', next_attempt_at = now() - interval '1 second'
        where id = ${delivery.id}`,
  );
  // Its lease still holds: the attempt may still be running somewhere.
  await sweepStuckDeliveries(db, SWEEP);
  expect(
    (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0]!.jobId,
  ).not.toBeNull();
  await db.execute(
    sql`update webhook_deliveries set lease_until = now() - interval '1 second' where id = ${delivery.id}`,
  );
  await sweepStuckDeliveries(db, SWEEP);
  await sweepStuckDeliveries(db, SWEEP);
  expect(await liveJobs(delivery)).toHaveLength(1);
  const [after] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
  expect(after).toMatchObject({ status: "pending", attempts: 1, jobId: null, leaseUntil: null });
  expect(after!.lastError).toBe(UNKNOWN_OUTCOME);
  // The next attempt per the schedule (300 s), not at once.
  expect(after!.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(200_000);
  const [next] = await liveJobs(delivery);
  expect(next!.data).toMatchObject({ deliveryId: delivery.id, attempt: 1 });
  expect(new Date(next!.startAfter).getTime() - Date.now()).toBeGreaterThan(200_000);
  expect(hook.received.filter((r) => r.headers["webhook-id"] === eventId)).toHaveLength(0);

  // Once the schedule is spent, the delivery fails instead.
  await db.execute(
    sql`update webhook_deliveries set attempts = 3, job_id = gen_random_uuid(), lease_until = now() - interval '1 second',
        next_attempt_at = now() - interval '1 second' where id = ${delivery.id}`,
  );
  await sweepStuckDeliveries(db, SWEEP);
  const [failed] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
  expect(failed).toMatchObject({ status: "failed", attempts: 3, jobId: null, nextAttemptAt: null });
});

it("finds a lost job behind thousands of due deliveries that wait in a hanging endpoint's queue, quickly", async () => {
  // An endpoint that hangs: 1,500 deliveries due long ago, each with its live job in the endpoint's queue (its cap
  // holds them back). The sweep once looked at the 500 oldest overdue deliveries, one job lookup each: it never got
  // past these, and ran into the statement timeout.
  const { delivery: waiting } = await pendingDelivery("Sweep hanging neighbour");
  await db.execute(sql`
    with more as (
      insert into webhook_deliveries (account_id, endpoint_id, event_id, next_attempt_at)
      select account_id, endpoint_id, event_id, now() - interval '3 hours' from webhook_deliveries, generate_series(1, 1500)
      where id = ${waiting.id}
      returning id, endpoint_id)
    insert into pgboss.job (name, data)
    select ${deliveryQueue(waiting.endpointId)}, json_build_object('deliveryId', id, 'attempt', 0, 'endpointId', endpoint_id)::jsonb
    from more`);
  // Another endpoint's delivery, overdue by less, whose job pg-boss gave up.
  const { eventId, delivery } = await pendingDelivery("Sweep lost job");
  const [job] = await liveJobs(delivery);
  await db.execute(sql`update pgboss.job set state = 'failed', retry_count = retry_limit where id = ${job!.id}`);
  await db.execute(
    sql`update webhook_deliveries set next_attempt_at = now() - interval '1 hour' where id = ${delivery.id}`,
  );

  await sweepStuckDeliveries(db, SWEEP);
  const [requeued] = await liveJobs(delivery);
  expect(requeued?.data).toMatchObject({ deliveryId: delivery.id, attempt: 0 });
  // The waiting ones have their jobs: none was queued twice.
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    `select count(*)::int as n from pgboss.job where name = $1 and state < 'completed'`,
    [deliveryQueue(waiting.endpointId)],
  );
  expect(n).toBe(1501);
  await deliverWebhook(db, requeued!, { timeoutMs: 2000, allowPrivate: true, retrySchedule: [1] });
  expect(hook.received.filter((r) => r.headers["webhook-id"] === eventId)).toHaveLength(1);
});

// Needs a second session to hold a lock: only on PostgreSQL (PGlite is one session).
it.skipIf(!process.env.DATABASE_URL)(
  "finishes a dead worker's attempt even while the lookup of lost jobs cannot run (it waits on pg-boss's table)",
  async () => {
    const { delivery } = await pendingDelivery("Sweep apart");
    const [job] = await liveJobs(delivery);
    await db.execute(sql`update pgboss.job set state = 'completed' where id = ${job!.id}`);
    // Its last attempt claimed and its worker gone: finishing it touches only webhook_deliveries (the schedule is
    // spent), while the lookup of lost jobs reads pg-boss's job table, which another session holds.
    await db.execute(
      sql`update webhook_deliveries set attempts = 3, job_id = gen_random_uuid(), lease_until = now() - interval '1 second',
          next_attempt_at = now() - interval '1 second' where id = ${delivery.id}`,
    );
    const { default: postgres } = await import("postgres");
    const other = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const holder = await other.reserve();
    await holder`begin`;
    await holder`lock table pgboss.job in access exclusive mode`;
    let sweeping: Promise<number> | undefined;
    try {
      sweeping = sweepStuckDeliveries(db, SWEEP);
      sweeping.catch(() => {});
      const status = async () =>
        (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0]!.status;
      // Before: both parts were one transaction, so the finished attempt waited (or, at the statement timeout, was
      // rolled back) with the lookup.
      expect(await pollUntil(status, (s) => s === "failed", { timeoutMs: 10_000 })).toBe("failed");
    } finally {
      await holder`rollback`;
      holder.release();
      await sweeping?.catch(() => {});
      await other.end();
    }
  },
);

it("looks up the endpoints with overdue deliveries once per sweep, not once per overdue delivery", async () => {
  // The plan must compute `late` as a CTE of its own; inlined, a stale estimate made it a rescanned inner loop.
  const text = STUCK.replace(/\$1::int/g, "60")
    .replace(/\$2/g, "'webhook-delivery'")
    .replace(/\$3/g, "'webhook-delivery.'");
  const rows = await queryRows<Record<string, unknown>>(db, `explain (format json) ${text}`, []);
  const plan = JSON.stringify(rows[0]);
  expect(plan).toContain('"CTE Name":"late"');
  expect(plan).toContain('"CTE Name":"orphaned"');
});
