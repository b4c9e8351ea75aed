import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { pollUntil, readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import * as create from "../couriers/[courier_id]/shipping-orders/route";
import * as labels from "../labels/route";
import * as label from "./[id]/label/route";
import * as item from "./[id]/route";

type Order = {
  id: string;
  referenceNumber: string;
  shippingNumber: string[];
  status: string;
  shipmentTracking: {
    status: string;
    trackingUrl: string | null;
    events: { status: string; time: string; location: string | null }[];
  };
};

const A6 = { width: 297.64, height: 419.53 };

async function createOrder(partner: Partner, body: Record<string, unknown>): Promise<Order> {
  const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
    body,
    params: { courier_id: "sandbox" },
  });
  return (await readJson<{ items: Order[] }>(response)).items[0]!;
}

describe("shipping orders: get, delete, labels, isolation", () => {
  let partner: Partner;
  let stranger: Partner;
  let twoParcels: Order;
  beforeAll(async () => {
    partner = await createPartner({ trackingStepMinutes: 0.001 });
    stranger = await createPartner();
    twoParcels = await createOrder(
      partner,
      order({ ReferenceNumber: "G-1", Parcels: [{ Weight: 1 }, { Weight: 2 }], CodPrice: 250, CodCurrency: "CZK" }),
    );
  });

  it("moves tracking forward on the profile's schedule, with events, locations and a tracking URL", async () => {
    // Steps of 60 ms: the order is delivered a quarter of a second after its creation, however long reads take.
    const got = await pollUntil(
      async () =>
        readJson<Order>(
          await as(partner)(item.GET, `/api/v2/shipping-orders/${twoParcels.id}`, { params: { id: twoParcels.id } }),
        ),
      (o) => o.status === "DELIVERED",
    );
    expect(got.status).toBe("DELIVERED");
    expect(got.shipmentTracking.status).toBe("DELIVERED");
    expect(got.shipmentTracking.trackingUrl).toMatch(/^https:\/\//);
    expect(got.shipmentTracking.events.map((e) => e.status)).toEqual([
      "CREATED",
      "HANDED_OVER",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
    expect(got.shipmentTracking.events[1]!.location).toBeTruthy();
  });

  it("serves the label: one A6 page per parcel", async () => {
    const response = await as(partner)(label.GET, `/api/v2/shipping-orders/${twoParcels.id}/label`, {
      params: { id: twoParcels.id },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const doc = await PDFDocument.load(new Uint8Array(await response.arrayBuffer()));
    expect(doc.getPageCount()).toBe(2);
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(A6.width, 0);
      expect(page.getHeight()).toBeCloseTo(A6.height, 0);
    }
  });

  it("merges labels by shipping number, refuses unknown numbers (404) and more than 100 (400)", async () => {
    const other = await createOrder(partner, order({ ReferenceNumber: "G-2" }));
    const numbers = [...twoParcels.shippingNumber, ...other.shippingNumber];
    const response = await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=${numbers.join(",")}`);
    expect(response.status).toBe(200);
    expect((await PDFDocument.load(new Uint8Array(await response.arrayBuffer()))).getPageCount()).toBe(3);
    expect(
      (await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=${numbers[0]}&shippingNumbers=SBX9999999999`))
        .status,
    ).toBe(404);
    const many = Array.from({ length: 101 }, (_, i) => `SBX${String(i).padStart(10, "0")}`);
    const tooMany = await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=${many.join(",")}`);
    expect(tooMany.status).toBe(400);
    expect((await readJson<{ errors: { field: string }[] }>(tooMany)).errors[0]!.field).toBe("shippingNumbers");
    expect((await as(partner)(labels.GET, "/api/v2/labels")).status).toBe(400);
  });

  it("answers 404 to another account on get, label, labels and delete, and changes nothing", async () => {
    const id = twoParcels.id;
    const post = as(stranger);
    expect((await post(item.GET, `/api/v2/shipping-orders/${id}`, { params: { id } })).status).toBe(404);
    expect((await post(label.GET, `/api/v2/shipping-orders/${id}/label`, { params: { id } })).status).toBe(404);
    expect((await post(labels.GET, `/api/v2/labels?shippingNumbers=${twoParcels.shippingNumber[0]}`)).status).toBe(404);
    expect(
      (await post(item.DELETE, `/api/v2/shipping-orders/${id}`, { method: "DELETE", params: { id } })).status,
    ).toBe(404);
    expect((await as(partner)(item.GET, `/api/v2/shipping-orders/${id}`, { params: { id } })).status).toBe(200);
  });

  it("answers 404 for a malformed id", async () => {
    for (const handler of [item.GET, label.GET]) {
      expect((await as(partner)(handler, "/api/v2/shipping-orders/xyz", { params: { id: "xyz" } })).status).toBe(404);
    }
  });

  it("deletes: 204, then 404 on get, label and a second delete", async () => {
    const doomed = await createOrder(partner, order({ ReferenceNumber: "DEL-1" }));
    const id = doomed.id;
    expect(
      (await as(partner)(item.DELETE, `/api/v2/shipping-orders/${id}`, { method: "DELETE", params: { id } })).status,
    ).toBe(204);
    expect((await as(partner)(item.GET, `/api/v2/shipping-orders/${id}`, { params: { id } })).status).toBe(404);
    expect((await as(partner)(label.GET, `/api/v2/shipping-orders/${id}/label`, { params: { id } })).status).toBe(404);
    expect(
      (await as(partner)(item.DELETE, `/api/v2/shipping-orders/${id}`, { method: "DELETE", params: { id } })).status,
    ).toBe(404);
    const again = await createOrder(partner, order({ ReferenceNumber: "DEL-1" }));
    expect(again).toMatchObject({ referenceNumber: "DEL-1", replaced: null });
  });

  it("checks permissions: read for get, labels:read for labels", async () => {
    const writer = await createPartner({ permissions: ["shipping-orders:write"] });
    const mine = await createOrder(writer, order());
    expect((await as(writer)(item.GET, `/api/v2/shipping-orders/${mine.id}`, { params: { id: mine.id } })).status).toBe(
      403,
    );
    expect(
      (await as(writer)(label.GET, `/api/v2/shipping-orders/${mine.id}/label`, { params: { id: mine.id } })).status,
    ).toBe(403);
  });
});
