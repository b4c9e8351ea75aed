import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, queryRows, type Db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { QUEUES, type DeliveryJob } from "@/server/jobs/queues";
import { createUser } from "@/server/services/accounts/create-user";
import { recordEvents } from "@/server/services/events/record-events";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverWebhook } from "./deliver-webhook";
import { sweepStuckDeliveries } from "./sweep-stuck-deliveries";

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

let db: Db;
let hook: Receiver;

beforeAll(async () => {
  db = await getDb();
  hook = await startReceiver();
});
afterAll(() => hook?.close());

const liveJobs = (deliveryId: string) =>
  queryRows<{ id: string; data: DeliveryJob }>(
    db,
    `select id, data from pgboss.job where name = $1 and state < 'completed' and data->>'deliveryId' = $2`,
    [QUEUES.webhookDelivery, deliveryId],
  );

it("re-queues a pending delivery whose job pg-boss gave up, once, and the attempt is then made", async () => {
  const user = await createUser(db, {
    email: `sweep-${crypto.randomUUID()}@test.example`,
    password: "correct horse battery",
    accountName: "Sweep",
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
  const [job] = await liveJobs(delivery!.id);
  expect(job).toBeDefined();

  // A live job carries it: nothing to sweep, however overdue.
  await db.execute(
    sql`update webhook_deliveries set next_attempt_at = now() - interval '1 hour' where id = ${delivery!.id}`,
  );
  expect(await sweepStuckDeliveries(db, { graceSeconds: 60 })).toBe(0);

  // pg-boss's retries are spent (the job ends `failed`): the delivery would stay pending with nobody to move it.
  await db.execute(sql`update pgboss.job set state = 'failed', retry_count = retry_limit where id = ${job!.id}`);
  expect(await liveJobs(delivery!.id)).toHaveLength(0);
  expect(await sweepStuckDeliveries(db, { graceSeconds: 60 })).toBe(1);
  expect(await sweepStuckDeliveries(db, { graceSeconds: 60 })).toBe(0);
  const [requeued] = await liveJobs(delivery!.id);
  expect(requeued!.data).toMatchObject({ deliveryId: delivery!.id, attempt: 0 });

  await deliverWebhook(db, requeued!, { timeoutMs: 2000, allowPrivate: true, retrySchedule: [1] });
  expect(hook.received.filter((r) => r.headers["webhook-id"] === eventId)).toHaveLength(1);
  const [after] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery!.id));
  expect(after).toMatchObject({ status: "succeeded", attempts: 1, jobId: null });
});

it("leaves alone a delivery that is pending but not yet overdue", async () => {
  const before = await sweepStuckDeliveries(db, { graceSeconds: 3600 });
  expect(before).toBe(0);
});
