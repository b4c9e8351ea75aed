import { and, eq, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import * as couriers from "@/app/api/v2/couriers/route";
import * as feed from "@/app/api/v2/events/route";
import * as labels from "@/app/api/v2/labels/route";
import * as check from "@/app/api/v2/private/courier-profiles/[id]/check/route";
import * as profileItem from "@/app/api/v2/private/courier-profiles/[id]/route";
import * as profiles from "@/app/api/v2/private/courier-profiles/route";
import * as label from "@/app/api/v2/shipping-orders/[id]/label/route";
import * as orderItem from "@/app/api/v2/shipping-orders/[id]/route";
import { getDb, queryRows } from "@/db/client";
import { courierAttempts, labelFiles, refusedAttempts, shippingOrders } from "@/db/schema";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { pplCourier } from "@/server/couriers/ppl/adapter";
import { packetaCourier } from "@/server/couriers/packeta/adapter";
import { recoverAttempts } from "@/server/services/couriers/recover-attempts";
import { toShipmentRequest } from "@/server/services/couriers/shipment-request";
import { orderRequestSchema } from "@/server/services/shipping-orders/order-request";
import { advanceDueTracking } from "@/server/services/shipping-orders/advance-tracking";
import { trackingQueue } from "@/server/queue/queues";
import { startWorker, workerOptionsFromEnv } from "@/server/jobs/worker";
import { call, pollUntil, readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";

/**
 * Packeta and PPL end to end through the REST routes, against the project's fake courier servers on 127.0.0.1:
 * profiles with secret credentials, validation of each courier's limits, creates with every error code, labels
 * fetched once, tracking moves, cancels, the credentials check, and recovery of an attempt whose process died.
 */

const PASSWORD = "0123456789abcdef0123456789abcdef";
const PPL_ID = "shop-client";
const PPL_SECRET = "ppl-client-secret-value-1234";

let packeta: Awaited<ReturnType<typeof startFakePacketa>>;
let ppl: Awaited<ReturnType<typeof startFakePpl>>;

beforeAll(async () => {
  packeta = await startFakePacketa({ password: PASSWORD });
  ppl = await startFakePpl({ clientId: PPL_ID, clientSecret: PPL_SECRET });
  process.env.COURIER_PACKETA_URL = packeta.url;
  process.env.COURIER_PPL_URL = ppl.url;
});
afterAll(async () => {
  await packeta.close();
  await ppl.close();
});
beforeEach(() => {
  packeta.setMode("ok");
  packeta.setDelay(0);
  ppl.setMode("ok");
  ppl.setDelay(0);
});

type Created = {
  items: {
    id: string;
    referenceNumber: string;
    shippingNumber: string[];
    status: string;
    trackingUrl: string | null;
  }[];
  failed: { referenceNumber: string; code: string; message: string }[];
};
type ValidationAnswer = { status: string; messages: { code: string; field: string; severity: string }[] };

async function profileFor(
  partner: Partner,
  courier: "packeta" | "ppl",
  settings: Record<string, unknown>,
  service?: string,
): Promise<{ id: string; settings: Record<string, unknown> }> {
  const response = await call(profiles.POST, "/api/v2/private/courier-profiles", {
    token: partner.token,
    body: { accountId: partner.accountId, courier, name: `${courier} main`, isDefault: true, service, settings },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return readJson(response);
}

/** The states of an account's courier attempts (settled ones stay, as a record). */
const attemptStates = async (accountId: string) =>
  (
    await (
      await getDb()
    )
      .select({ state: courierAttempts.state })
      .from(courierAttempts)
      .where(eq(courierAttempts.accountId, accountId))
  )
    .map((a) => a.state)
    .sort();

const packetaOrder = (overrides: Record<string, unknown> = {}) =>
  order({ PickupPoint: "4321", InsurancePrice: 1000, ...overrides });

const post = (partner: Partner, courier: string, body: unknown, profile?: string) =>
  as(partner)(create.POST, `/api/v2/couriers/${courier}/shipping-orders${profile ? `?profile=${profile}` : ""}`, {
    body,
    params: { courier_id: courier },
  });

describe("real couriers: profiles and the catalogue", () => {
  it("lists packeta and ppl with their services, and keeps their secrets write-only", async () => {
    const partner = await createPartner();
    const listed = await readJson<{ items: { id: string; services: string[] }[] }>(
      await as(partner)(couriers.GET, "/api/v2/couriers"),
    );
    expect(listed.items.find((c) => c.id === "packeta")?.services).toEqual(["PICKUP_POINT", "HOME"]);
    expect(listed.items.find((c) => c.id === "ppl")?.services).toEqual(
      expect.arrayContaining(["PRIVATE", "BUSINESS", "PARCELSHOP", "INTERNATIONAL"]),
    );
    const profile = await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop" });
    expect(profile.settings).toEqual({ apiPassword: `****${PASSWORD.slice(-4)}`, sender: "my-shop" });
    // A PATCH without the secret keeps it: the profile still creates orders.
    const patched = await call(profileItem.PATCH, `/api/v2/private/courier-profiles/${profile.id}`, {
      method: "PATCH",
      token: partner.token,
      body: { settings: { sender: "my-shop" } },
      params: { id: profile.id },
    });
    expect(patched.status).toBe(200);
    expect((await post(partner, "packeta", packetaOrder())).status).toBe(200);
    // Unknown keys and a short password are refused naming the field.
    const bad = await call(profiles.POST, "/api/v2/private/courier-profiles", {
      token: partner.token,
      body: {
        accountId: partner.accountId,
        courier: "packeta",
        name: "bad",
        settings: { apiPassword: "short", sender: "x" },
      },
    });
    expect(bad.status).toBe(400);
    const problem = JSON.stringify(await readJson(bad));
    expect(problem).toContain("apiPassword");
    expect(problem).not.toContain('"short"');
  });

  it("checks credentials with the courier: ok, or the courier's words", async () => {
    const partner = await createPartner();
    const good = await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    const answer = await call(check.POST, `/api/v2/private/courier-profiles/${good.id}/check`, {
      token: partner.token,
      params: { id: good.id },
    });
    expect(answer.status).toBe(200);
    expect(await readJson(answer)).toEqual({ ok: true });
    const wrong = await profileFor(partner, "packeta", { apiPassword: "f".repeat(32), sender: "my-shop" });
    const refused = await readJson(
      await call(check.POST, `/api/v2/private/courier-profiles/${wrong.id}/check`, {
        token: partner.token,
        params: { id: wrong.id },
      }),
    );
    expect(refused).toMatchObject({ ok: false, code: "COURIER_AUTH_FAILED" });
    expect(JSON.stringify(refused)).not.toContain("f".repeat(32));
  });
});

describe("real couriers: validation of each courier's limits, before any call", () => {
  it("refuses what Packeta and PPL would refuse, at the field", async () => {
    const partner = await createPartner();
    await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop" });
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    const calls = packeta.requests.length + ppl.requests.length;
    const check = async (courier: string, body: Record<string, unknown>) =>
      readJson<ValidationAnswer>(
        await as(partner)(validate.POST, `/api/v2/couriers/${courier}/shipping-orders/validate`, {
          body,
          params: { courier_id: courier },
        }),
      );
    const longRef = await check("packeta", packetaOrder({ ReferenceNumber: "R".repeat(25) }));
    expect(longRef.messages).toContainEqual(expect.objectContaining({ field: "ReferenceNumber", severity: "ERROR" }));
    const noValue = await check("packeta", order({ PickupPoint: "4321" }));
    expect(noValue.messages).toContainEqual(
      expect.objectContaining({ code: "REQUIRED", field: "InsurancePrice", severity: "ERROR" }),
    );
    const missingPoint = await check("packeta", order({ InsurancePrice: 100 }));
    expect(missingPoint.messages.filter((m) => m.field === "PickupPoint")).toEqual([
      expect.objectContaining({ code: "REQUIRED", severity: "ERROR" }),
    ]);
    const badPoint = await check("packeta", packetaOrder({ PickupPoint: "Praha 1" }));
    expect(badPoint.messages).toContainEqual(expect.objectContaining({ code: "INVALID_FORMAT", field: "PickupPoint" }));
    const badCurrency = await check("packeta", packetaOrder({ CodPrice: 10, CodCurrency: "USD" }));
    expect(badCurrency.messages.filter((m) => m.field === "CodCurrency")).toHaveLength(1);
    const home = await check("packeta", packetaOrder({ Service: "HOME" }));
    expect(home.messages).toContainEqual(expect.objectContaining({ code: "UNSUPPORTED_COUNTRY", severity: "ERROR" }));
    const codWithoutSymbol = await check("ppl", order({ CodPrice: 100, CodCurrency: "CZK" }));
    expect(codWithoutSymbol.messages).toContainEqual(
      expect.objectContaining({ field: "VariableSymbol", severity: "ERROR" }),
    );
    const ok = await check("ppl", order({ CodPrice: 100, CodCurrency: "CZK", VariableSymbol: "2026001" }));
    expect(ok.status).not.toBe("ERROR");
    // Issue 28: what the couriers' specifications refuse, stated at the field before any call.
    const recipient = order().Recipient as Record<string, unknown>;
    const longCompany = await check("packeta", packetaOrder({ Recipient: { ...recipient, Company: "C".repeat(33) } }));
    expect(longCompany.messages).toContainEqual(
      expect.objectContaining({ code: "TOO_LONG", field: "Recipient.Company", severity: "ERROR" }),
    );
    const abroad = { ...recipient, Country: "DE", Zip: "10115" };
    const connectSet = await check(
      "ppl",
      order({ Service: "INTERNATIONAL", Recipient: abroad, Parcels: [{ Weight: 1 }, { Weight: 2 }] }),
    );
    expect(connectSet.messages).toContainEqual(
      expect.objectContaining({ code: "OUT_OF_RANGE", field: "Parcels", severity: "ERROR" }),
    );
    const codAbroad = await check(
      "ppl",
      order({ Service: "INTERNATIONAL", Recipient: abroad, CodPrice: 10, CodCurrency: "EUR", VariableSymbol: "1" }),
    );
    expect(codAbroad.messages).toContainEqual(
      expect.objectContaining({ code: "COD_NOT_SUPPORTED", field: "CodPrice", severity: "ERROR" }),
    );
    expect(packeta.requests.length + ppl.requests.length).toBe(calls);
  });
});

describe("real couriers: create, labels, tracking and cancel with Packeta", () => {
  it("registers one packet per parcel, keeps the label, tracks and cancels", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop" });
    const response = await post(partner, "packeta", [
      packetaOrder({ ReferenceNumber: "PK-1", Parcels: [{ Weight: 1 }, { Weight: 2.5 }], Note: "Ring twice" }),
      packetaOrder({ ReferenceNumber: "PK-2", CodPrice: 499, CodCurrency: "CZK", InsurancePrice: undefined }),
    ]);
    expect(response.status).toBe(200);
    const body = await readJson<Created>(response);
    expect(body.failed).toEqual([]);
    expect(body.items.map((i) => i.shippingNumber.length)).toEqual([2, 1]);
    for (const n of body.items.flatMap((i) => i.shippingNumber)) expect(n).toMatch(/^Z\d+$/);
    // One createPackets call for the three packets, mapped as the contract says.
    const createCalls = packeta.requests.filter((r) => r.operation === "createPackets");
    const last = createCalls.at(-1)!;
    expect(last.xml).toContain("<number>PK-1</number>");
    expect(last.xml).toContain("<eshop>my-shop</eshop>");
    expect(last.xml).toContain("<note>Ring twice</note>");
    expect(last.xml).toContain("<cod>499.00</cod>");
    // No attempt is left once the orders are stored.
    expect(new Set(await attemptStates(partner.accountId))).toEqual(new Set(["closed"]));

    const [first] = body.items;
    const labelCalls = () => packeta.requests.filter((r) => r.operation.startsWith("packet")).length;
    const before = labelCalls();
    const pdf = await as(partner)(label.GET, `/api/v2/shipping-orders/${first!.id}/label`, {
      params: { id: first!.id },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect((await PDFDocument.load(await pdf.arrayBuffer())).getPageCount()).toBe(2);
    expect(labelCalls()).toBe(before + 1);
    const again = await as(partner)(label.GET, `/api/v2/shipping-orders/${first!.id}/label`, {
      params: { id: first!.id },
    });
    expect(again.status).toBe(200);
    expect(labelCalls()).toBe(before + 1);
    const stored = await db
      .select({ format: labelFiles.format })
      .from(labelFiles)
      .where(eq(labelFiles.orderId, first!.id));
    expect(stored).toEqual([{ format: "pdf-a6" }]);
    // /labels: a page per number asked, from the kept files (one packet label of PK-1, the label of PK-2).
    const numbers = [first!.shippingNumber[1]!, body.items[1]!.shippingNumber[0]!];
    const many = await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=${numbers.join(",")}`);
    expect(many.status).toBe(200);
    expect((await PDFDocument.load(await many.arrayBuffer())).getPageCount()).toBe(2);
    // A label the courier cannot produce: 502 COURIER_UNAVAILABLE, nothing kept, asked again next time.
    packeta.setMode("5xx");
    const failed = await as(partner)(label.GET, `/api/v2/shipping-orders/${first!.id}/label?format=zpl`, {
      params: { id: first!.id },
    });
    expect(failed.status).toBe(502);
    expect(await readJson(failed)).toMatchObject({ code: "COURIER_UNAVAILABLE" });
    packeta.setMode("ok");
    const zpl = await as(partner)(label.GET, `/api/v2/shipping-orders/${first!.id}/label?format=zpl`, {
      params: { id: first!.id },
    });
    expect(zpl.status).toBe(200);
    expect(await zpl.text()).toMatch(/^\^XA/);

    // Tracking: the worker asks Packeta (outside any transaction) and maps its code; Packeta's text is kept. Every
    // packet is asked: the order moves when its least advanced packet does.
    const [packetIds] = (
      await db.select({ data: shippingOrders.courierData }).from(shippingOrders).where(eq(shippingOrders.id, first!.id))
    ).map((r) => r.data.packetIds as string[]);
    const packetId = packetIds![0];
    for (const id of packetIds!) packeta.setStatus(id, 2, new Date(Date.now() + 60_000));
    const later = new Date(Date.now() + 10 * 60_000);
    while ((await advanceDueTracking(db, { courier: "packeta", now: later })) > 0);
    const got = await readJson<{
      status: string;
      shipmentTracking: { status: string; events: { status: string; description: string }[] };
    }>(await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${first!.id}`, { params: { id: first!.id } }));
    expect(got.shipmentTracking.status).toBe("HANDED_OVER");
    expect(got.shipmentTracking.events.at(-1)).toMatchObject({
      status: "HANDED_OVER",
      description: "Packet arrived at the depot.",
    });
    const events = await readJson<{ items: { type: string; data: { previousStatus?: string } }[] }>(
      await as(partner)(feed.GET, "/api/v2/events?limit=100"),
    );
    expect(events.items.filter((e) => e.type === "shipping_order.status_changed")).toHaveLength(1);
    // A second poll with nothing new writes nothing new.
    while ((await advanceDueTracking(db, { courier: "packeta", now: new Date(later.getTime() + 3600_000) })) > 0);
    const events2 = await readJson<{ items: { type: string }[] }>(
      await as(partner)(feed.GET, "/api/v2/events?limit=100"),
    );
    expect(events2.items.filter((e) => e.type === "shipping_order.status_changed")).toHaveLength(1);

    // Cancel: refused by Packeta → 409 COURIER_CANNOT_CANCEL and the order stays; then cancelled → 204.
    packeta.setMode("cancel-not-allowed");
    const refused = await as(partner)(orderItem.DELETE, `/api/v2/shipping-orders/${first!.id}`, {
      method: "DELETE",
      params: { id: first!.id },
    });
    expect(refused.status).toBe(409);
    expect(await readJson(refused)).toMatchObject({ code: "COURIER_CANNOT_CANCEL" });
    packeta.setMode("ok");
    const removed = await as(partner)(orderItem.DELETE, `/api/v2/shipping-orders/${first!.id}`, {
      method: "DELETE",
      params: { id: first!.id },
    });
    expect(removed.status).toBe(204);
    expect(
      packeta.requests.filter((r) => r.operation === "cancelPacket").map((r) => String(r.body.packetId)),
    ).toContain(packetId);
  });

  it("reports refusals, refused credentials, outages and timeouts in failed, as refused attempts", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const profile = await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop", timeoutMs: 1000 });
    const outcome = async (body: unknown) => (await readJson<Created>(await post(partner, "packeta", body))).failed;

    const refused = await outcome(packetaOrder({ ReferenceNumber: "REFUSE-1" }));
    expect(refused).toEqual([
      { referenceNumber: "REFUSE-1", code: "COURIER_REJECTED", message: expect.stringMatching(/^Packeta: /) },
    ]);
    const [attempt] = await db.select().from(refusedAttempts).where(eq(refusedAttempts.accountId, partner.accountId));
    expect(attempt).toMatchObject({ code: "COURIER_REJECTED", courier: "packeta" });

    packeta.setMode("5xx");
    const unavailable = await outcome(packetaOrder());
    expect(unavailable[0]?.code).toBe("COURIER_UNAVAILABLE");
    expect(unavailable[0]).not.toHaveProperty("outcomeUnknown");
    // An aborted createPacket (sent, never answered): Packeta may have registered it.
    packeta.setMode("hang");
    const hung = await outcome(packetaOrder({ ReferenceNumber: "HUNG-1" }));
    expect(hung).toEqual([
      { referenceNumber: "HUNG-1", code: "COURIER_TIMEOUT", message: expect.any(String), outcomeUnknown: true },
    ]);
    packeta.setMode("ok");
    const [unknownAttempt] = await db
      .select()
      .from(refusedAttempts)
      .where(and(eq(refusedAttempts.accountId, partner.accountId), eq(refusedAttempts.referenceNumber, "HUNG-1")));
    expect(unknownAttempt).toMatchObject({ code: "COURIER_TIMEOUT", outcomeUnknown: true });
    const events = await readJson<{ items: { type: string; data: Record<string, unknown> }[] }>(
      await as(partner)(feed.GET, "/api/v2/events?limit=100"),
    );
    expect(
      events.items.find((e) => e.type === "shipping_order.courier_rejected" && e.data.referenceNumber === "HUNG-1")
        ?.data,
    ).toMatchObject({ code: "COURIER_TIMEOUT", outcomeUnknown: true });
    // The attempt stays open for recovery (not closed with the refusal); Packeta has no lookup by reference, so
    // recovery settles it as unresolved and the refused attempt keeps saying "outcome unknown".
    expect(await attemptStates(partner.accountId)).toContain("unknown");
    expect(await recoverAttempts(db, { accountId: partner.accountId })).toMatchObject({ attempts: 1, unknown: 1 });
    expect(await attemptStates(partner.accountId)).not.toContain("unknown");
    const [still] = await db.select().from(refusedAttempts).where(eq(refusedAttempts.id, unknownAttempt!.id));
    expect(still!.outcomeUnknown).toBe(true);

    await call(profileItem.PATCH, `/api/v2/private/courier-profiles/${profile.id}`, {
      method: "PATCH",
      token: partner.token,
      body: { settings: { apiPassword: "e".repeat(32), sender: "my-shop", timeoutMs: 1000 } },
      params: { id: profile.id },
    });
    const auth = await outcome(packetaOrder());
    expect(auth[0]?.code).toBe("COURIER_AUTH_FAILED");
    expect(JSON.stringify(auth)).not.toContain("e".repeat(32));
    expect(await db.select().from(shippingOrders).where(eq(shippingOrders.accountId, partner.accountId))).toEqual([]);
    expect((await attemptStates(partner.accountId)).filter((s) => s !== "closed" && s !== "recovered")).toEqual([]);
  });
});

describe("real couriers: edges", () => {
  it("prints one /labels file from sandbox and Packeta numbers together, in the order asked", async () => {
    const partner = await createPartner();
    await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop" });
    const own = await readJson<Created>(await post(partner, "sandbox", order()));
    const theirs = await readJson<Created>(
      await post(partner, "packeta", packetaOrder({ Parcels: [{ Weight: 1 }, { Weight: 2 }] })),
    );
    const numbers = [theirs.items[0]!.shippingNumber[1]!, own.items[0]!.shippingNumber[0]!];
    const pdf = await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=${numbers.join(",")}`);
    expect(pdf.status).toBe(200);
    expect((await PDFDocument.load(await pdf.arrayBuffer())).getPageCount()).toBe(2);
    const zpl = await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=${numbers.join(",")}&format=zpl`);
    expect(zpl.status).toBe(200);
    const text = await zpl.text();
    expect(text.match(/\^XA/g)).toHaveLength(2);
    // The Packeta parcel's own block (its second packet) comes first, then the sandbox label.
    expect(text.indexOf(theirs.items[0]!.shippingNumber[1]!.slice(1))).toBeLessThan(text.indexOf(numbers[1]!));
  });

  it("answers 502 and stores nothing when a courier answers a shipping number already in use", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop" });
    const first = await startFakePacketa({ password: PASSWORD });
    process.env.COURIER_PACKETA_URL = first.url;
    const created = await readJson<Created>(await post(partner, "packeta", packetaOrder()));
    const firstId = Number(created.items[0]!.shippingNumber[0]!.slice(1));
    // A second Packeta that hands out the very same barcode.
    const twin = await startFakePacketa({ password: PASSWORD, firstId });
    process.env.COURIER_PACKETA_URL = twin.url;
    try {
      const response = await post(partner, "packeta", packetaOrder({ ReferenceNumber: "TWIN-1" }));
      expect(response.status).toBe(502);
      expect(await readJson(response)).toMatchObject({ code: "COURIER_UNAVAILABLE" });
      const stored = await db
        .select({ ref: shippingOrders.referenceNumber })
        .from(shippingOrders)
        .where(eq(shippingOrders.accountId, partner.accountId));
      expect(stored.map((r) => r.ref)).not.toContain("TWIN-1");
      // The twin's packet was cancelled with it: nothing of the failed create is left at the courier.
      expect(twin.requests.filter((r) => r.operation === "cancelPacket")).toHaveLength(1);
      expect(await attemptStates(partner.accountId)).toEqual(["closed", "closed"]);
    } finally {
      process.env.COURIER_PACKETA_URL = packeta.url;
      await twin.close();
      await first.close();
    }
  });
});

describe("real couriers: PPL", () => {
  it("sends a request's orders as one batch, tracks phases and refreshes its token once", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    const batches = () => ppl.requests.filter((r) => r.method === "POST" && r.path.endsWith("/shipment/batch")).length;
    const before = batches();
    const response = await post(partner, "ppl", [
      order({ ReferenceNumber: "PPL-1" }),
      order({ ReferenceNumber: "PPL-2", Parcels: [{ Weight: 1 }, { Weight: 2 }] }),
      order({ ReferenceNumber: "PPL-3", CodPrice: 250, CodCurrency: "CZK", VariableSymbol: "123456" }),
    ]);
    expect(response.status).toBe(200);
    const body = await readJson<Created>(response);
    expect(body.failed).toEqual([]);
    expect(body.items.map((i) => i.shippingNumber.length)).toEqual([1, 2, 1]);
    expect(batches()).toBe(before + 1);

    ppl.expireTokens();
    const numbers = body.items.map((i) => i.shippingNumber[0]!);
    ppl.setPhase(numbers[0]!, "InTransport");
    ppl.setPhase(numbers[2]!, "Delivered");
    const later = new Date(Date.now() + 10 * 60_000);
    while ((await advanceDueTracking(db, { courier: "ppl", now: later })) > 0);
    const statusOf = async (id: string) =>
      (
        await readJson<{ shipmentTracking: { status: string } }>(
          await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${id}`, { params: { id } }),
        )
      ).shipmentTracking.status;
    expect(await statusOf(body.items[0]!.id)).not.toBe("CREATED");
    expect(await statusOf(body.items[1]!.id)).toBe("CREATED");
    expect(await statusOf(body.items[2]!.id)).toBe("DELIVERED");
    // A delivered order is not polled again.
    const [delivered] = await db
      .select({ next: shippingOrders.trackingNextAt })
      .from(shippingOrders)
      .where(eq(shippingOrders.id, body.items[2]!.id));
    expect(delivered!.next).toBeNull();
    // One PPL tracking call for the three orders.
    expect(ppl.requests.filter((r) => r.method === "GET" && /\/shipment$/.test(r.path)).length).toBeGreaterThan(0);
  });

  it("a courier that fails tracking is asked again later, and does not hold up another courier", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET, timeoutMs: 1000 });
    const created = await readJson<Created>(await post(partner, "ppl", order()));
    const id = created.items[0]!.id;
    ppl.setMode("hang");
    const later = new Date(Date.now() + 10 * 60_000);
    await advanceDueTracking(db, { courier: "ppl", now: later });
    const [row] = await db
      .select({ failures: shippingOrders.trackingFailures, next: shippingOrders.trackingNextAt })
      .from(shippingOrders)
      .where(eq(shippingOrders.id, id));
    expect(row!.failures).toBe(1);
    expect(row!.next!.getTime()).toBeGreaterThan(later.getTime());
    ppl.setMode("ok");
  });
});

describe("real couriers: tracking by workers", () => {
  it("two workers polling at once write each move once", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    const created = await readJson<Created>(
      await post(
        partner,
        "ppl",
        Array.from({ length: 6 }, () => order()),
      ),
    );
    for (const item of created.items) ppl.setPhase(item.shippingNumber[0]!, "InTransport");
    ppl.setDelay(100);
    const later = new Date(Date.now() + 10 * 60_000);
    const worker = async () => {
      while ((await advanceDueTracking(db, { courier: "ppl", now: later, batchSize: 2 })) > 0);
    };
    await Promise.all([worker(), worker()]);
    const events = await readJson<{ items: { type: string; data: { shippingOrder: { id: string } } }[] }>(
      await as(partner)(feed.GET, "/api/v2/events?limit=100"),
    );
    const moves = events.items.filter((e) => e.type === "shipping_order.status_changed");
    expect(moves.map((e) => e.data.shippingOrder.id).sort()).toEqual(created.items.map((i) => i.id).sort());
  });

  it("a courier that hangs does not hold up another courier's tracking (a queue per courier)", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET, timeoutMs: 60_000 });
    await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop" });
    const viaPpl = await readJson<Created>(await post(partner, "ppl", order()));
    const viaPacketa = await readJson<Created>(await post(partner, "packeta", packetaOrder()));
    const [pplId, packetaId] = [viaPpl.items[0]!.id, viaPacketa.items[0]!.id];
    await db
      .update(shippingOrders)
      .set({ trackingNextAt: new Date(Date.now() - 60_000) })
      .where(sql`${shippingOrders.id} in (${pplId}, ${packetaId})`);
    const [packetId] = (
      await db.select({ data: shippingOrders.courierData }).from(shippingOrders).where(eq(shippingOrders.id, packetaId))
    ).map((r) => (r.data.packetIds as string[])[0]);
    packeta.setStatus(packetId!, 7, new Date(Date.now() + 1000));
    ppl.setMode("hang");
    const worker = await startWorker(db, { ...workerOptionsFromEnv(), pollingSeconds: 0.5, maintenanceSeconds: 1 });
    try {
      // PPL's job first: it hangs (its timeout is a minute); Packeta's, on its own queue, is done meanwhile.
      await worker.boss.send(trackingQueue("ppl"), { courier: "ppl" });
      await worker.boss.send(trackingQueue("packeta"), { courier: "packeta" });
      const delivered = await pollUntil(
        async () =>
          (
            await db
              .select({ status: shippingOrders.status })
              .from(shippingOrders)
              .where(eq(shippingOrders.id, packetaId))
          )[0]!.status,
        (status) => status === "DELIVERED",
        { timeoutMs: 20_000 },
      );
      expect(delivered).toBe("DELIVERED");
      // PPL is still hanging when Packeta's move is written: the PPL order has not been answered yet.
      const [pplRow] = await db
        .select({ failures: shippingOrders.trackingFailures })
        .from(shippingOrders)
        .where(eq(shippingOrders.id, pplId));
      expect(pplRow!.failures).toBe(0);
      expect(ppl.requests.some((r) => r.method === "GET" && /\/shipment$/.test(r.path))).toBe(true);
    } finally {
      ppl.setMode("ok");
      ppl.releaseHanging();
      await worker.stop();
    }
  }, 60_000);
});

describe("real couriers: no orphan shipments", () => {
  /**
   * What a create whose process died after PPL registered its shipment leaves: the shipment at PPL and an `open`
   * attempt, due, with nothing recorded. Returns PPL's outcome for it.
   */
  async function lostPplAttempt(partner: Partner, profileId: string, lost: Record<string, unknown>) {
    const db = await getDb();
    const request = toShipmentRequest(orderRequestSchema.parse(lost), "PRIVATE");
    const [registered] = await pplCourier.createShipments(
      [request],
      { clientId: PPL_ID, clientSecret: PPL_SECRET },
      { signal: AbortSignal.timeout(5000), timeoutMs: 5000, now: () => new Date(), allocateNumbers: async () => [] },
    );
    expect(registered?.ok).toBe(true);
    await db.insert(courierAttempts).values({
      accountId: partner.accountId,
      courier: "ppl",
      courierProfileId: profileId,
      baseUrl: "http://localhost",
      orders: [
        {
          order: orderRequestSchema.parse(lost) as unknown as Record<string, unknown>,
          referenceSource: "api",
          sourceIdentifier: "default",
          service: "PRIVATE",
          request: request as unknown as Record<string, unknown>,
        },
      ],
      recoverAfter: new Date(Date.now() - 60_000),
    });
    return registered!;
  }

  /** A PPL batch still InProcess when the create's time runs out: the answer is unknown, the attempt stays open. */
  async function unknownPplCreate(partner: Partner, reference: string) {
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET, timeoutMs: 1000 });
    // More reads of the batch InProcess than the create makes within its second (at most about 5).
    ppl.setPendingPolls(12);
    try {
      const response = await post(partner, "ppl", order({ ReferenceNumber: reference }));
      expect(response.status).toBe(200);
      return await readJson<Created>(response);
    } finally {
      ppl.setPendingPolls(0);
    }
  }
  const settleRecovery = (accountId: string) =>
    pollUntil(
      async () => {
        await recoverAttempts(await getDb(), { accountId, now: new Date(Date.now() + 10 * 60_000) });
        return attemptStates(accountId);
      },
      (states) => !states.includes("recovering") && !states.includes("unknown"),
      { timeoutMs: 30_000, intervalMs: 0 },
    );

  it("answers a PPL batch still in process as outcomeUnknown, keeps the attempt, and recovery adopts the shipment", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const reference = `INPROC-${Date.now()}`;
    const created = await unknownPplCreate(partner, reference);
    expect(created.items).toEqual([]);
    expect(created.failed).toEqual([
      { referenceNumber: reference, code: "COURIER_TIMEOUT", message: expect.any(String), outcomeUnknown: true },
    ]);
    expect(await attemptStates(partner.accountId)).toEqual(["unknown"]);
    const [refused] = await db.select().from(refusedAttempts).where(eq(refusedAttempts.accountId, partner.accountId));
    expect(refused).toMatchObject({ outcomeUnknown: true, code: "COURIER_TIMEOUT" });

    expect(await settleRecovery(partner.accountId)).toEqual(["recovered"]);
    const orders = await db
      .select({ id: shippingOrders.id, ref: shippingOrders.referenceNumber })
      .from(shippingOrders)
      .where(eq(shippingOrders.accountId, partner.accountId));
    expect(orders.map((o) => o.ref)).toEqual([reference]);
    const view = await readJson<{ shippingNumber: string[] }>(
      await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${orders[0]!.id}`, { params: { id: orders[0]!.id } }),
    );
    expect(ppl.shipment(view.shippingNumber[0]!)).toMatchObject({ referenceId: reference, phase: "Order" });
    const [settled] = await db.select().from(refusedAttempts).where(eq(refusedAttempts.id, refused!.id));
    expect(settled).toMatchObject({ outcomeUnknown: false, message: expect.stringContaining("Recovered") });
    const events = await readJson<{ items: { type: string; data: { shippingOrder?: { referenceNumber: string } } }[] }>(
      await as(partner)(feed.GET, "/api/v2/events?limit=100"),
    );
    expect(events.items.filter((e) => e.type === "shipping_order.created")).toHaveLength(1);
  });

  it("cancels the unknown shipment when the partner created the reference again meanwhile, and leaves the retry alone", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const reference = `RETRY-${Date.now()}`;
    await unknownPplCreate(partner, reference);
    const lost = ppl.requests.filter((r) => r.method === "POST" && r.path === "/shipment/batch").at(-1)!;
    expect(JSON.stringify(lost.body)).toContain(reference);
    const retry = await readJson<Created>(await post(partner, "ppl", order({ ReferenceNumber: reference })));
    expect(retry.items).toHaveLength(1);
    const kept = retry.items[0]!.shippingNumber[0]!;

    expect(await settleRecovery(partner.accountId)).toEqual(["closed", "recovered"]);
    const live = await db
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(and(eq(shippingOrders.accountId, partner.accountId), sql`deleted_at is null`));
    expect(live.map((o) => o.id)).toEqual([retry.items[0]!.id]);
    expect(ppl.shipment(kept)!.phase).toBe("Order");
    const cancels = ppl.requests.filter((r) => r.path.endsWith("/cancel")).map((r) => r.path);
    expect(cancels).not.toContain(`/shipment/${kept}/cancel`);
    const orphan = [...cancels].reverse().find((p) => ppl.shipment(p.split("/")[2]!)?.referenceId === reference);
    expect(orphan, "the unknown shipment was cancelled at PPL").toBeDefined();
    expect(ppl.shipment(orphan!.split("/")[2]!)!.phase).toBe("Canceled");
  });

  it("the original request that finds its attempt claimed by recovery stores nothing and cancels nothing recovery adopted", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET, timeoutMs: 20_000 });
    const reference = `RACE-${Date.now()}`;
    // PPL registers at the POST and keeps the batch InProcess for a while: the original request is still polling
    // when recovery (taking its process for dead) claims the attempt, finds the shipment by reference and adopts it.
    ppl.setPendingPolls(9);
    const original = post(partner, "ppl", order({ ReferenceNumber: reference }));
    let originalDone = false;
    void original.then(() => (originalDone = true));
    const posted = await pollUntil(
      async () => ppl.requests.some((r) => r.path === "/shipment/batch" && JSON.stringify(r.body).includes(reference)),
      (seen) => seen,
    );
    ppl.setPendingPolls(0);
    expect(posted).toBe(true);
    const report = await recoverAttempts(db, { accountId: partner.accountId, now: new Date(Date.now() + 3_600_000) });
    expect(originalDone, "recovery ran while the original request was still waiting for PPL").toBe(false);
    expect(report).toMatchObject({ attempts: 1, adopted: 1 });
    const answer = await readJson<Created>(await original);
    expect(answer.items).toEqual([]);
    expect(answer.failed).toEqual([
      { referenceNumber: reference, code: "COURIER_TIMEOUT", message: expect.any(String), outcomeUnknown: true },
    ]);
    const orders = await db
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(eq(shippingOrders.accountId, partner.accountId));
    expect(orders).toHaveLength(1);
    const view = await readJson<{ shippingNumber: string[] }>(
      await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${orders[0]!.id}`, { params: { id: orders[0]!.id } }),
    );
    // The adopted order's shipment is still PPL's: the original request did not cancel it.
    expect(ppl.shipment(view.shippingNumber[0]!)!.phase).toBe("Order");
    expect(ppl.requests.filter((r) => r.path === `/shipment/${view.shippingNumber[0]}/cancel`)).toEqual([]);
    expect(await attemptStates(partner.accountId)).toEqual(["recovered"]);
  });

  it("adopts a shipment whose answer was recorded but whose commit never happened, with its created event", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const profile = await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    // What a process that died after the courier's answer leaves: the attempt, with the answer recorded.
    const created = await readJson<Created>(await post(partner, "ppl", order({ ReferenceNumber: "DONOR" })));
    const shipment = ppl.shipment(created.items[0]!.shippingNumber[0]!)!;
    expect(shipment).toBeDefined();
    const adopted = order({ ReferenceNumber: "ORPHAN-1" });
    await db.execute(sql`
      insert into courier_attempts (account_id, courier, courier_profile_id, base_url, orders, answers, recover_after)
      values (${partner.accountId}, 'ppl', ${profile.id}, 'http://localhost',
        ${JSON.stringify([
          {
            order: { ...adopted, Recipient: { ...(adopted.Recipient as object), Country: "CZ" } },
            referenceSource: "api",
            sourceIdentifier: "default",
            service: "PRIVATE",
            request: { referenceNumber: "ORPHAN-1" },
          },
        ])}::jsonb,
        ${JSON.stringify([
          {
            referenceNumber: "ORPHAN-1",
            shippingNumbers: ["40999999999"],
            trackingUrl: null,
            courierData: {},
          },
        ])}::jsonb,
        now() - interval '1 minute')`);
    const report = await recoverAttempts(db, { accountId: partner.accountId });
    expect(report).toMatchObject({ adopted: 1, cancelled: 0 });
    const rows = await db
      .select({ ref: shippingOrders.referenceNumber })
      .from(shippingOrders)
      .where(eq(shippingOrders.accountId, partner.accountId));
    expect(rows.map((r) => r.ref).sort()).toEqual(["DONOR", "ORPHAN-1"]);
    const events = await readJson<{ items: { type: string; data: { shippingOrder?: { referenceNumber: string } } }[] }>(
      await as(partner)(feed.GET, "/api/v2/events?limit=100"),
    );
    expect(
      events.items.filter(
        (e) => e.type === "shipping_order.created" && e.data.shippingOrder?.referenceNumber === "ORPHAN-1",
      ),
    ).toHaveLength(1);
    expect(new Set(await attemptStates(partner.accountId))).toEqual(new Set(["closed", "recovered"]));
  });

  it("looks an unanswered attempt up at PPL by reference and adopts what PPL registered", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const profile = await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    // PPL registered the shipment; the process died before even the answer was recorded.
    const registered = await lostPplAttempt(partner, profile.id, order({ ReferenceNumber: `LOST-${Date.now()}` }));
    const report = await recoverAttempts(db, { accountId: partner.accountId });
    expect(report).toMatchObject({ adopted: 1, cancelled: 0 });
    const [adopted] = await db
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(eq(shippingOrders.accountId, partner.accountId));
    const view = await readJson<{ shippingNumber: string[]; referenceNumber: string }>(
      await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${adopted!.id}`, { params: { id: adopted!.id } }),
    );
    expect(view.shippingNumber).toEqual(registered.ok ? registered.shippingNumbers : []);
    // Recovering again finds nothing to do.
    expect((await recoverAttempts(db, { accountId: partner.accountId })).attempts).toBe(0);
  });

  it("waits for a retry still in flight before looking a lost attempt up by reference, then cancels the lost shipment", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const profile = await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET, timeoutMs: 20_000 });
    const reference = `SIBLING-${Date.now()}`;
    // The first request's process died after PPL registered its shipment and before anything was recorded.
    const first = await lostPplAttempt(partner, profile.id, order({ ReferenceNumber: reference }));
    const lostNumber = first.ok ? first.shippingNumbers[0]! : "";
    expect(lostNumber).not.toBe("");
    // The partner's retry: PPL registered it and keeps the batch InProcess, so the request is still polling (its
    // attempt open, not due) when recovery looks at the lost attempt. PPL's lookup by reference now lists both
    // shipments, the retry's the newest.
    ppl.setPendingPolls(9);
    const retry = post(partner, "ppl", order({ ReferenceNumber: reference }));
    let retryDone = false;
    void retry.then(() => (retryDone = true));
    // The lost request's POST and the retry's.
    await pollUntil(
      async () =>
        ppl.requests.filter(
          (r) => r.method === "POST" && r.path === "/shipment/batch" && JSON.stringify(r.body).includes(reference),
        ).length,
      (posts) => posts === 2,
    );
    ppl.setPendingPolls(0);
    const early = await recoverAttempts(db, { accountId: partner.accountId });
    // Not picked from PPL's list while the retry may still claim one of its shipments.
    expect(early).toMatchObject({ attempts: 1, adopted: 0, cancelled: 0, waiting: 1 });
    expect(retryDone, "recovery ran while the retry was still waiting for PPL").toBe(false);

    const answer = await readJson<Created>(await retry);
    expect(answer.failed).toEqual([]);
    const kept = answer.items[0]!.shippingNumber[0]!;
    expect(kept).not.toBe(lostNumber);
    expect(await settleRecovery(partner.accountId)).toEqual(["closed", "recovered"]);
    const live = await db
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(and(eq(shippingOrders.accountId, partner.accountId), sql`deleted_at is null`));
    expect(live.map((o) => o.id)).toEqual([answer.items[0]!.id]);
    expect(ppl.shipment(kept)!.phase).toBe("Order");
    // No orphan: the lost attempt's shipment is cancelled, the retry's kept.
    expect(ppl.shipment(lostNumber)!.phase).toBe("Canceled");
  });

  it("leaves a request whose outcome was unknown and whose store failed to recovery, which cancels what PPL registered", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const reference = `UNSTORED-${Date.now()}`;
    // The database fails the request's own commit (as a terminated backend does): the refusal with outcomeUnknown
    // and the attempt's move to `unknown` are never stored, and the request answers 503.
    const trigger = `fail_settle_${partner.accountId.replaceAll("-", "")}`;
    await db.execute(
      sql.raw(`create function ${trigger}() returns trigger language plpgsql as $$ begin
        if new.account_id = '${partner.accountId}' and new.state = 'unknown' then
          raise exception 'the connection went away (injected)' using errcode = '08006';
        end if;
        return new; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger ${trigger} before update on courier_attempts for each row execute function ${trigger}()`),
    );
    let lost: Response;
    try {
      await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET, timeoutMs: 1000 });
      ppl.setPendingPolls(12);
      try {
        lost = await post(partner, "ppl", order({ ReferenceNumber: reference }));
      } finally {
        ppl.setPendingPolls(0);
      }
    } finally {
      await db.execute(sql.raw(`drop trigger ${trigger} on courier_attempts`));
      await db.execute(sql.raw(`drop function ${trigger}()`));
    }
    expect(lost.status, await lost.clone().text()).toBe(503);
    const registered = ppl.requests.filter(
      (r) => r.path === "/shipment/batch" && r.method === "POST" && JSON.stringify(r.body).includes(reference),
    );
    expect(registered).toHaveLength(1);
    // The partner sends it again and gets its order.
    const retry = await readJson<Created>(await post(partner, "ppl", order({ ReferenceNumber: reference })));
    expect(retry.failed).toEqual([]);
    const kept = retry.items[0]!.shippingNumber[0]!;

    expect(await settleRecovery(partner.accountId)).toEqual(["closed", "recovered"]);
    expect(ppl.shipment(kept)!.phase).toBe("Order");
    const shipments = ppl.shipmentsOfReference(reference);
    expect(shipments).toHaveLength(2);
    // No orphan: every shipment PPL registered for the reference is the live order's or cancelled.
    expect(shipments.filter((s) => s.shipmentNumber !== kept).map((s) => s.phase)).toEqual(["Canceled"]);
  });

  it("does not settle an order as never registered while PPL may still be working on its timed-out request", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const reference = `SLOWREG-${Date.now()}`;
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET, timeoutMs: 1000 });
    // PPL takes the batch and has registered nothing yet when the create gives up, nor when recovery first looks
    // the reference up: a real PPL may register it seconds after the request timed out.
    ppl.holdCreates();
    let released = false;
    try {
      const created = await readJson<Created>(await post(partner, "ppl", order({ ReferenceNumber: reference })));
      expect(created.failed).toEqual([
        { referenceNumber: reference, code: "COURIER_TIMEOUT", message: expect.any(String), outcomeUnknown: true },
      ]);
      expect(await attemptStates(partner.accountId)).toEqual(["unknown"]);
      // Recovery at once: PPL knows no shipment of the reference yet, and that is not yet an answer.
      const early = await recoverAttempts(db, { accountId: partner.accountId });
      expect(early).toMatchObject({ attempts: 1, adopted: 0, cancelled: 0, waiting: 1 });
      expect(ppl.shipmentsOfReference(reference)).toEqual([]);
      const [refused] = await db.select().from(refusedAttempts).where(eq(refusedAttempts.accountId, partner.accountId));
      expect(refused).toMatchObject({ outcomeUnknown: true });
      ppl.releaseCreates();
      released = true;
    } finally {
      if (!released) ppl.releaseCreates();
    }
    expect(ppl.shipmentsOfReference(reference)).toHaveLength(1);
    // Once the request cannot be running at PPL any more, recovery asks again and adopts what PPL registered.
    expect(await settleRecovery(partner.accountId)).toEqual(["recovered"]);
    const live = await db
      .select({ id: shippingOrders.id })
      .from(shippingOrders)
      .where(and(eq(shippingOrders.accountId, partner.accountId), sql`deleted_at is null`));
    expect(live).toHaveLength(1);
    const view = await readJson<{ shippingNumber: string[] }>(
      await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${live[0]!.id}`, { params: { id: live[0]!.id } }),
    );
    // No orphan: PPL's one shipment of the reference is the live order's.
    expect(view.shippingNumber).toEqual([ppl.shipmentsOfReference(reference)[0]!.shipmentNumber]);
  });

  it("cancels a replaced order's shipment through the worker when PPL could not cancel it at the replacement", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await profileFor(partner, "ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    const reference = `REPLACED-${Date.now()}`;
    const first = await readJson<Created>(await post(partner, "ppl", order({ ReferenceNumber: reference })));
    const firstNumber = first.items[0]!.shippingNumber[0]!;
    const jobsOf = (orderId: string) =>
      queryRows<{ id: string }>(
        db,
        `select id from pgboss.job where name = 'courier-cancel' and data->'predecessor'->>'id' = $1`,
        [orderId],
      );
    // PPL is down for cancels right when the order is replaced (an outage: the request's own cancel times out).
    ppl.setMode("cancel-unavailable");
    let second: Created;
    try {
      second = await readJson<Created>(await post(partner, "ppl", order({ ReferenceNumber: reference })));
    } finally {
      ppl.setMode("ok");
    }
    expect(second.items[0]).toMatchObject({ replaced: first.items[0]!.id });
    expect(ppl.shipment(firstNumber)!.phase).toBe("Order");
    const [job] = await jobsOf(first.items[0]!.id);
    expect(job, "a courier-cancel job was queued with the replacement").toBeDefined();

    // The job waits a minute behind the request's own cancel: its clock moved on, then a worker takes it.
    await db.execute(sql`update pgboss.job set start_after = now() where id = ${job!.id}::uuid`);
    const worker = await startWorker(db, { ...workerOptionsFromEnv(), pollingSeconds: 0.5, maintenanceSeconds: 1 });
    try {
      const phase = await pollUntil(
        async () => ppl.shipment(firstNumber)!.phase,
        (p) => p === "Canceled",
        { timeoutMs: 20_000 },
      );
      expect(phase, "the replaced order's shipment is cancelled at PPL").toBe("Canceled");
    } finally {
      await worker.stop();
    }
    // No orphan: the live order's shipment is kept.
    expect(ppl.shipment(second.items[0]!.shippingNumber[0]!)!.phase).toBe("Order");

    // When the request's own cancel goes through, its job is dropped: the courier is not asked twice.
    const third = await readJson<Created>(await post(partner, "ppl", order({ ReferenceNumber: reference })));
    expect(third.items[0]).toMatchObject({ replaced: second.items[0]!.id });
    expect(ppl.shipment(second.items[0]!.shippingNumber[0]!)!.phase).toBe("Canceled");
    expect(await jobsOf(second.items[0]!.id)).toEqual([]);
  }, 60_000);

  it("cancels the shipments of an abandoned request, never a shipment that a live order holds", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const profile = await profileFor(partner, "packeta", { apiPassword: PASSWORD, sender: "my-shop" });
    const created = await readJson<Created>(
      await post(partner, "packeta", packetaOrder({ ReferenceNumber: "GONE-1" })),
    );
    const [live] = await db
      .select({ data: shippingOrders.courierData })
      .from(shippingOrders)
      .where(eq(shippingOrders.id, created.items[0]!.id));
    // A packet of a request that failed after Packeta answered (nothing stored): registered at Packeta directly.
    const request = toShipmentRequest(
      orderRequestSchema.parse(packetaOrder({ ReferenceNumber: "GONE-2" })),
      "PICKUP_POINT",
    );
    const [orphan] = await packetaCourier.createShipments(
      [request],
      { apiPassword: PASSWORD, sender: "my-shop" },
      { signal: AbortSignal.timeout(5000), timeoutMs: 5000, now: () => new Date(), allocateNumbers: async () => [] },
    );
    if (!orphan?.ok) throw new Error("Packeta did not register the orphan");
    const attemptOf = (answers: object[]) => ({
      accountId: partner.accountId,
      courier: "packeta",
      courierProfileId: profile.id,
      baseUrl: "http://localhost",
      orders: [
        {
          order: packetaOrder({ ReferenceNumber: "GONE-2" }),
          referenceSource: "api",
          sourceIdentifier: "default",
          service: "PICKUP_POINT",
          request: request as unknown as Record<string, unknown>,
        },
      ],
      answers: answers as never,
      state: "abandoned" as const,
      recoverAfter: new Date(Date.now() - 60_000),
    });
    // One abandoned attempt answered the orphan; another (a corrupt record) names the live order's packet.
    await db.insert(courierAttempts).values(attemptOf([{ index: 0, ...orphan, ok: undefined }]));
    await db.insert(courierAttempts).values(
      attemptOf([
        {
          index: 0,
          referenceNumber: "GONE-2",
          shippingNumbers: created.items[0]!.shippingNumber,
          trackingUrl: null,
          courierData: live!.data,
        },
      ]),
    );
    const report = await recoverAttempts(db, { accountId: partner.accountId });
    expect(report).toMatchObject({ attempts: 2, adopted: 0, cancelled: 1 });
    const cancelled = packeta.requests
      .filter((r) => r.operation === "cancelPacket")
      .map((r) => String(r.body.packetId));
    expect(cancelled).toContain((orphan.courierData.packetIds as string[])[0]);
    expect(cancelled).not.toContain((live!.data.packetIds as string[])[0]);
    expect(await attemptStates(partner.accountId)).toEqual(["closed", "recovered", "recovered"]);
  });
});
