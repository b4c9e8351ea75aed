import { and, eq, inArray } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as profiles from "@/app/api/v2/private/courier-profiles/route";
import * as label from "@/app/api/v2/shipping-orders/[id]/label/route";
import { getDb } from "@/db/client";
import { shippingOrders, trackingEvents } from "@/db/schema";
import { drawnTexts } from "@/server/couriers/fake-label";
import { startFakePacketa } from "@/server/couriers/packeta/fake-server";
import { startFakePpl } from "@/server/couriers/ppl/fake-server";
import { advanceDueTracking } from "@/server/services/shipping-orders/advance-tracking";
import { call, readJson } from "@/test/helpers";
import { as, createPartner, order } from "@/test/partner";

/**
 * The fakes as `npm run dev` starts them (option `clock`): their shipments move on a clock as the sandbox's do, the
 * tracking worker moves the orders, each order has one CREATED event, and their labels look like the couriers'.
 */

const PACKETA_PASSWORD = "devPW0123456789abcdef0123456789x";
const PPL_ID = "dev-clock-client";
const PPL_SECRET = "dev-clock-client-secret-0123456789";
const STEP_MINUTES = 2;

/** The fakes' clock: moved by the test, no sleeps. */
let fakeNow = new Date();
let packeta: Awaited<ReturnType<typeof startFakePacketa>>;
let ppl: Awaited<ReturnType<typeof startFakePpl>>;
beforeAll(async () => {
  const clock = { stepMinutes: STEP_MINUTES, now: () => fakeNow };
  packeta = await startFakePacketa({ password: PACKETA_PASSWORD, clock });
  ppl = await startFakePpl({ clientId: PPL_ID, clientSecret: PPL_SECRET, clock });
  process.env.COURIER_PACKETA_URL = packeta.url;
  process.env.COURIER_PPL_URL = ppl.url;
});
afterAll(async () => {
  await packeta.close();
  await ppl.close();
});

describe("the dev fakes of Packeta and PPL", () => {
  it("move their shipments on a clock: the tracking worker moves the orders, with one CREATED event each", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const newProfile = async (courier: string, settings: Record<string, unknown>) =>
      readJson<{ id: string }>(
        await call(profiles.POST, "/api/v2/private/courier-profiles", {
          token: partner.token,
          body: { accountId: partner.accountId, courier, name: courier, isDefault: true, settings },
        }),
      );
    await newProfile("packeta", { apiPassword: PACKETA_PASSWORD, sender: "shop" });
    await newProfile("ppl", { clientId: PPL_ID, clientSecret: PPL_SECRET });
    const post = async (courier: string, body: unknown) =>
      readJson<{ items: { id: string }[] }>(
        await as(partner)(create.POST, `/api/v2/couriers/${courier}/shipping-orders`, {
          body,
          params: { courier_id: courier },
        }),
      );
    fakeNow = new Date();
    const [viaPacketa] = (await post("packeta", order({ PickupPoint: "4321", InsurancePrice: 100 }))).items;
    const [viaPpl] = (await post("ppl", order())).items;
    const ids = [viaPacketa!.id, viaPpl!.id];

    const poll = async (minutes: number) => {
      fakeNow = new Date(Date.now() + minutes * 60_000);
      await advanceDueTracking(db, { courier: "packeta", now: fakeNow });
      await advanceDueTracking(db, { courier: "ppl", now: fakeNow });
    };
    const statuses = async () =>
      Object.fromEntries(
        (
          await db
            .select({ id: shippingOrders.id, status: shippingOrders.status })
            .from(shippingOrders)
            .where(inArray(shippingOrders.id, ids))
        ).map((r) => [r.id === viaPacketa!.id ? "packeta" : "ppl", r.status]),
      );
    const createdEvents = async (id: string) =>
      (
        await db
          .select()
          .from(trackingEvents)
          .where(and(eq(trackingEvents.orderId, id), eq(trackingEvents.status, "CREATED")))
      ).length;

    // Before the first step the couriers still report their "registered" state: the orders stay CREATED, and the
    // couriers' own CREATED records are not a second CREATED event.
    await poll(1.5);
    expect(await statuses()).toEqual({ packeta: "CREATED", ppl: "CREATED" });
    // One step later: Packeta's packet arrived at the depot, PPL picked the shipment up.
    await poll(STEP_MINUTES + 1.5);
    expect(await statuses()).toEqual({ packeta: "HANDED_OVER", ppl: "HANDED_OVER" });
    for (const id of ids) expect(await createdEvents(id)).toBe(1);
    // At the end of their way both are delivered.
    await poll(10 * STEP_MINUTES);
    expect(await statuses()).toEqual({ packeta: "DELIVERED", ppl: "DELIVERED" });

    // Their labels: a PDF of one A6 page holding the courier's name and the packet's / shipment's number.
    for (const id of ids) {
      const response = await as(partner)(label.GET, `/api/v2/shipping-orders/${id}/label`, { params: { id } });
      expect(response.status).toBe(200);
      const pdf = new Uint8Array(await response.arrayBuffer());
      const doc = await PDFDocument.load(pdf);
      expect(doc.getPageCount()).toBe(1);
      expect(Math.round(doc.getPage(0).getWidth())).toBe(298);
      const [row] = await db
        .select({
          courier: shippingOrders.courier,
          courierData: shippingOrders.courierData,
          referenceNumber: shippingOrders.referenceNumber,
        })
        .from(shippingOrders)
        .where(eq(shippingOrders.id, id));
      const [texts] = await drawnTexts(pdf);
      if (row!.courier === "packeta") {
        const packetId = String((row!.courierData as { packetIds: string[] }).packetIds[0]);
        expect(texts).toContain("Packeta");
        expect(texts).toContain(`Z ${packetId.slice(0, 3)} ${packetId.slice(3, 7)} ${packetId.slice(7)}`);
      } else {
        const [shipment] = ppl.shipmentsOfReference(row!.referenceNumber);
        expect(texts).toContain("PPL");
        expect(texts).toContain(shipment?.shipmentNumber ?? "?");
      }
    }
  });
});
