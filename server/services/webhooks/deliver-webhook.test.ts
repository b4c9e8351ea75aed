import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as endpoints from "@/app/api/v2/private/webhook-endpoints/route";
import * as rotate from "@/app/api/v2/private/webhook-endpoints/[id]/rotate-secret/route";
import * as testPing from "@/app/api/v2/private/webhook-endpoints/[id]/test/route";
import * as deliveries from "@/app/api/v2/private/webhook-endpoints/[id]/deliveries/route";
import * as resend from "@/app/api/v2/private/webhook-deliveries/[id]/resend/route";
import { getDb, queryRows } from "@/db/client";
import { auditEvents, events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { startWorker, workerOptionsFromEnv, type RunningWorker } from "@/server/jobs/worker";
import { call, readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { eventually, startReceiver, type Receiver } from "@/test/webhook-receiver";
import { deliverWebhook, FAILING_DISABLE_MS } from "./deliver-webhook";

// Read when the environment is first parsed (lazily, after this line): a receiver on loopback, short timeouts.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.WEBHOOK_TIMEOUT_MS = "1500";

const RETRIES = [0.2, 0.2, 0.2];

let worker: RunningWorker;
const receivers: Receiver[] = [];

beforeAll(async () => {
  const options = workerOptionsFromEnv();
  worker = await startWorker(await getDb(), {
    ...options,
    delivery: { ...options.delivery, retrySchedule: RETRIES },
    pollingSeconds: 0.5,
    maintenanceSeconds: 1,
  });
});

afterAll(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function endpointFor(partner: Partner, url: string, body: Record<string, unknown> = {}) {
  const response = await call(endpoints.POST, "/api/v2/private/webhook-endpoints", {
    token: partner.token,
    body: { url, ...body },
  });
  expect(response.status).toBe(201);
  return readJson<{ id: string; secret: string }>(response);
}

const createOrders = (partner: Partner, body: unknown) =>
  as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
    body,
    headers: { "content-type": "application/json" },
    params: { courier_id: "sandbox" },
  });

type Delivery = {
  id: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  nextAttempt: string | null;
};

async function deliveriesOf(partner: Partner, endpointId: string, query = ""): Promise<Delivery[]> {
  const response = await call(deliveries.GET, `/api/v2/private/webhook-endpoints/${endpointId}/deliveries${query}`, {
    token: partner.token,
    params: { id: endpointId },
  });
  expect(response.status).toBe(200);
  return (await readJson<{ items: Delivery[] }>(response)).items;
}

describe("webhook deliveries", () => {
  it("POSTs each event to a real receiver with Standard Webhooks headers that the standardwebhooks library verifies", async () => {
    const partner = await createPartner();
    const hook = await receiver();
    const endpoint = await endpointFor(partner, hook.url);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const created = await readJson<{ items: { id: string }[] }>(await createOrders(partner, order()));
    const [request] = await eventually(() => hook.received.length >= 1 && hook.received, 20_000, "the delivery");
    const event = new Webhook(endpoint.secret).verify(request!.body, request!.headers as Record<string, string>) as {
      id: string;
      type: string;
      created: string;
      data: { shippingOrder: { id: string } };
    };
    expect(event.type).toBe("shipping_order.created");
    expect(event.data.shippingOrder.id).toBe(created.items[0]!.id);
    expect(request!.headers["webhook-id"]).toBe(event.id);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(event.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(
        request!.body,
        request!.headers as Record<string, string>,
      ),
    ).toThrow();
    const [delivery] = await eventually(async () => {
      const list = await deliveriesOf(partner, endpoint.id);
      return list[0]?.status === "succeeded" && list;
    });
    expect(delivery).toMatchObject({ attempts: 1, responseStatus: 200, nextAttempt: null });
  });

  it("retries while the receiver is down and delivers once it is up: every event arrives, none is lost", async () => {
    const partner = await createPartner();
    const hook = await receiver();
    let up = false;
    hook.reply = () => (up ? 200 : 503);
    await endpointFor(partner, hook.url);
    const batch = Array.from({ length: 5 }, () => order());
    expect((await createOrders(partner, batch)).status).toBe(200);
    await eventually(() => hook.received.length >= 10, 20_000, "failed attempts");
    up = true;
    const ids = await eventually(() => {
      const ok = new Set(hook.received.filter((r) => r.at > 0).map((r) => r.headers["webhook-id"]));
      return ok.size === 5 && ok;
    });
    expect(ids.size).toBe(5);
    const db = await getDb();
    const rows = await eventually(async () => {
      const list = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, partner.accountId));
      return list.every((d) => d.status === "succeeded") && list;
    });
    expect(rows).toHaveLength(5);
    expect(rows.every((d) => d.attempts >= 2)).toBe(true);
  });

  it("marks a delivery failed after the last retry, and resend sends it again", async () => {
    const partner = await createPartner();
    const hook = await receiver();
    hook.reply = () => 500;
    const endpoint = await endpointFor(partner, hook.url);
    await createOrders(partner, order());
    const [failed] = await eventually(async () => {
      const list = await deliveriesOf(partner, endpoint.id, "?status=failed");
      return list.length === 1 && list;
    });
    expect(failed).toMatchObject({ attempts: RETRIES.length + 1, responseStatus: 500, nextAttempt: null });
    expect(await deliveriesOf(partner, endpoint.id, "?status=pending")).toEqual([]);
    hook.reply = () => 204;
    const response = await call(resend.POST, `/api/v2/private/webhook-deliveries/${failed!.id}/resend`, {
      token: partner.token,
      method: "POST",
      params: { id: failed!.id },
    });
    expect(response.status).toBe(202);
    const [succeeded] = await eventually(async () => {
      const list = await deliveriesOf(partner, endpoint.id, "?status=succeeded");
      return list.length === 1 && list;
    });
    expect(succeeded).toMatchObject({ id: failed!.id, attempts: RETRIES.length + 2, responseStatus: 204 });
  });

  it("disables the endpoint at once on 410 Gone, with an audit event", async () => {
    const partner = await createPartner();
    const hook = await receiver();
    hook.reply = () => 410;
    const endpoint = await endpointFor(partner, hook.url);
    await createOrders(partner, order());
    const db = await getDb();
    const row = await eventually(async () => {
      const [e] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      return e && !e.enabled && e;
    });
    expect(row.disabledReason).toContain("410");
    expect(hook.received).toHaveLength(1);
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.targetId, endpoint.id));
    expect(audit.map((a) => a.action)).toContain("webhook_endpoint.disabled");
    // A disabled endpoint gets no new deliveries.
    await createOrders(partner, order());
    expect(await deliveriesOf(partner, endpoint.id)).toHaveLength(1);
  });

  it("does not follow redirects: a 3xx is a failed attempt and the redirect target is never called", async () => {
    const partner = await createPartner();
    const hook = await receiver();
    hook.reply = (r) => (r.headers["webhook-id"] ? 302 : 200);
    const endpoint = await endpointFor(partner, hook.url);
    await createOrders(partner, order());
    await eventually(async () => (await deliveriesOf(partner, endpoint.id, "?status=failed")).length === 1);
    expect(hook.received.every((r) => r.headers["webhook-id"])).toBe(true);
    expect(hook.received).toHaveLength(RETRIES.length + 1);
  });

  it("signs with both secrets for 24 hours after a rotation, each verifying on its own", async () => {
    const partner = await createPartner();
    const hook = await receiver();
    const endpoint = await endpointFor(partner, hook.url);
    const rotated = await readJson<{ secret: string }>(
      await call(rotate.POST, `/api/v2/private/webhook-endpoints/${endpoint.id}/rotate-secret`, {
        token: partner.token,
        method: "POST",
        params: { id: endpoint.id },
      }),
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    const ping = await call(testPing.POST, `/api/v2/private/webhook-endpoints/${endpoint.id}/test`, {
      token: partner.token,
      method: "POST",
      params: { id: endpoint.id },
    });
    expect(ping.status).toBe(202);
    const [request] = await eventually(() => hook.received.length >= 1 && hook.received);
    const headers = request!.headers as Record<string, string>;
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect((new Webhook(secret).verify(request!.body, headers) as { type: string }).type).toBe("webhook.test");
    }
  });

  it("disables an endpoint whose deliveries have all failed for 5 days (clock injected)", async () => {
    const partner = await createPartner();
    const hook = await receiver();
    hook.reply = () => 500;
    const endpoint = await endpointFor(partner, hook.url);
    const db = await getDb();
    // A delivery with no job: only the attempts below, driven by hand with a fake clock, touch it.
    const [event] = await db
      .insert(events)
      .values({
        accountId: partner.accountId,
        type: "webhook.test",
        data: { webhookEndpointId: endpoint.id, message: "x" },
      })
      .returning();
    const [pending] = await db
      .insert(webhookDeliveries)
      .values({ accountId: partner.accountId, endpointId: endpoint.id, eventId: event!.id })
      .returning();
    const start = Date.now();
    const options = { timeoutMs: 1500, allowPrivate: true, retrySchedule: [1e6, 1e6] };
    await db
      .update(webhookDeliveries)
      .set({ attempts: 50, status: "pending" })
      .where(eq(webhookDeliveries.id, pending!.id));
    await deliverWebhook(
      db,
      { id: crypto.randomUUID(), data: { deliveryId: pending!.id, attempt: 50 } },
      { ...options, now: () => new Date(start) },
    );
    let [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: true, failureStreak: 1 });
    await db.update(webhookDeliveries).set({ status: "pending" }).where(eq(webhookDeliveries.id, pending!.id));
    await deliverWebhook(
      db,
      { id: crypto.randomUUID(), data: { deliveryId: pending!.id, attempt: 51 } },
      { ...options, now: () => new Date(start + FAILING_DISABLE_MS + 1000) },
    );
    [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: false, failureStreak: 2 });
    expect(row!.disabledReason).toContain("5 days");
  });

  it("two workers share the queue: every event is delivered, each attempt by one worker", async () => {
    const options = workerOptionsFromEnv();
    const second = await startWorker(await getDb(), {
      ...options,
      delivery: { ...options.delivery, retrySchedule: RETRIES },
      pollingSeconds: 0.5,
      maintenanceSeconds: 1,
    });
    try {
      const partner = await createPartner();
      const hook = await receiver();
      const endpoint = await endpointFor(partner, hook.url);
      const batch = Array.from({ length: 40 }, () => order());
      expect((await createOrders(partner, batch)).status).toBe(200);
      const rows = await eventually(async () => {
        const list = await (
          await getDb()
        )
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, endpoint.id));
        return list.length === 40 && list.every((d) => d.status === "succeeded") && list;
      }, 60_000);
      const ids = hook.received.map((r) => r.headers["webhook-id"]);
      expect(new Set(ids).size).toBe(40);
      // Each attempt POSTed at most once. (On a loaded machine the embedded database can keep this process's own
      // receiver from answering within the 1.5 s timeout: such an attempt is retried, as a new attempt.)
      expect(ids.length).toBeLessThanOrEqual(rows.reduce((sum, d) => sum + d.attempts, 0));
    } finally {
      await second.stop();
    }
  }, 90_000);
});

describe.runIf(Boolean(process.env.DATABASE_URL))(
  "an outcome recorded while its endpoint is deleted (PostgreSQL)",
  () => {
    it("waits for the delete and records nothing: both take the endpoint's lock before its deliveries'", async () => {
      const partner = await createPartner();
      const hook = await receiver();
      const endpoint = await endpointFor(partner, hook.url);
      const db = await getDb();
      const [event] = await db
        .insert(events)
        .values({ accountId: partner.accountId, type: "webhook.test", data: { webhookEndpointId: endpoint.id } })
        .returning();
      // No job: only the attempt below touches it.
      const [delivery] = await db
        .insert(webhookDeliveries)
        .values({ accountId: partner.accountId, endpointId: endpoint.id, eventId: event!.id })
        .returning();
      let lockHeld!: () => void;
      const held = new Promise<void>((resolve) => (lockHeld = resolve));
      let outcomeWaits!: () => void;
      const outcomeWaiting = new Promise<void>((resolve) => (outcomeWaits = resolve));
      // The delete's transaction, as deleteWebhookEndpoint runs it: the endpoint's row locked first, its deliveries
      // removed by the cascade afterwards, while the attempt's outcome is being written.
      const deletion = db.transaction(async (tx) => {
        await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)).for("update");
        lockHeld();
        await outcomeWaiting;
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      });
      await held;
      const attempt = deliverWebhook(
        db,
        { id: crypto.randomUUID(), data: { deliveryId: delivery!.id, attempt: 0 } },
        { timeoutMs: 1500, allowPrivate: true, retrySchedule: [1e6] },
      );
      await eventually(
        async () => {
          const waiting = await queryRows(
            db,
            `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            [],
          );
          return waiting.length > 0 || undefined;
        },
        30_000,
        "the outcome's transaction to wait for a lock",
      );
      outcomeWaits();
      await expect(deletion).resolves.toBeUndefined();
      await expect(attempt).resolves.toMatchObject({ claimed: true });
      expect(hook.received).toHaveLength(1);
      expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery!.id))).toEqual([]);
    }, 60_000);
  },
);
