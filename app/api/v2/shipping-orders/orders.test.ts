import { sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { CourierError } from "@/server/couriers/adapter";
import { sandboxCourier } from "@/server/couriers/sandbox";
import { pollUntil, readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import * as create from "../couriers/[courier_id]/shipping-orders/route";
import * as labels from "../labels/route";
import * as label from "./[id]/label/route";
import * as item from "./[id]/route";
import * as list from "./route";

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

  it("serves labels as PDF A4 (four per sheet) or ZPL by ?format=, named after the reference; unknown format → 400", async () => {
    const url = (format: string) => `/api/v2/shipping-orders/${twoParcels.id}/label?format=${format}`;
    const a6 = await as(partner)(label.GET, `/api/v2/shipping-orders/${twoParcels.id}/label`, {
      params: { id: twoParcels.id },
    });
    expect(a6.headers.get("content-disposition")).toBe(`inline; filename="label-${twoParcels.referenceNumber}.pdf"`);
    const a4 = await as(partner)(label.GET, url("pdf-a4"), { params: { id: twoParcels.id } });
    expect(a4.headers.get("content-type")).toBe("application/pdf");
    const sheet = await PDFDocument.load(new Uint8Array(await a4.arrayBuffer()));
    expect(sheet.getPageCount()).toBe(1);
    expect(sheet.getPage(0).getWidth()).toBeCloseTo(595.28, 0);
    const zpl = await as(partner)(label.GET, url("zpl"), { params: { id: twoParcels.id } });
    expect(zpl.status).toBe(200);
    expect(zpl.headers.get("content-type")).toBe("application/x-zpl");
    expect(zpl.headers.get("content-disposition")).toBe(
      `attachment; filename="label-${twoParcels.referenceNumber}.zpl"`,
    );
    const text = await zpl.text();
    expect(text.match(/\^XA/g)).toHaveLength(2);
    for (const number of twoParcels.shippingNumber) expect(text).toContain(`^BCN,200,Y,N,N,A^FH\\^FD${number}^FS`);
    for (const bad of ["pdf", "ZPL", ""]) {
      const refused = await as(partner)(label.GET, url(bad), { params: { id: twoParcels.id } });
      expect(refused.status, bad).toBe(400);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect((await readJson<{ errors: { field: string }[] }>(refused)).errors).toEqual([
        { field: "format", message: "must be one of pdf-a6, pdf-a4, zpl" },
      ]);
    }
    const merged = await as(partner)(
      labels.GET,
      `/api/v2/labels?shippingNumbers=${twoParcels.shippingNumber.join(",")}&format=zpl`,
    );
    expect(merged.headers.get("content-disposition")).toBe(
      `attachment; filename="labels-${twoParcels.referenceNumber}.zpl"`,
    );
    expect((await merged.text()).match(/\^XZ/g)).toHaveLength(2);
    expect((await as(partner)(labels.GET, `/api/v2/labels?shippingNumbers=x&format=png`)).status).toBe(400);
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

  it("leaves a deleted order out of status=CANCELLED, which lists the orders a courier cancelled on its side", async () => {
    const deleted = await createOrder(partner, order({ ReferenceNumber: "DEL-LIST-1" }));
    const byCourier = await createOrder(partner, order({ ReferenceNumber: "DEL-LIST-2" }));
    const id = deleted.id;
    await as(partner)(item.DELETE, `/api/v2/shipping-orders/${id}`, { method: "DELETE", params: { id } });
    // As a courier's cancel is stored: final, tracking stopped. Without stopping it, the sandbox's next tracking step
    // (due at once on the tests' clock) writes its own status over this one.
    await (
      await getDb()
    ).execute(sql`update shipping_orders set status = 'CANCELLED', tracking_next_at = null where id = ${byCourier.id}`);
    const response = await as(partner)(
      list.GET,
      "/api/v2/shipping-orders?status=CANCELLED&referenceNumbers=DEL-LIST-1,DEL-LIST-2",
    );
    expect(response.status).toBe(200);
    const page = await readJson<{ itemsCount: number; items: { id: string; status: string }[] }>(response);
    expect(page).toMatchObject({ itemsCount: 1, items: [{ id: byCourier.id, status: "CANCELLED" }] });
  });

  describe("the courier's cancel", () => {
    afterEach(() => vi.restoreAllMocks());
    const remove = (id: string) =>
      as(partner)(item.DELETE, `/api/v2/shipping-orders/${id}`, { method: "DELETE", params: { id } });

    it("runs outside any transaction: the order's row is not locked while the courier answers", async () => {
      const doomed = await createOrder(partner, order({ ReferenceNumber: "DEL-UNLOCKED" }));
      const seen: string[] = [];
      vi.spyOn(sandboxCourier, "cancelShipment").mockImplementationOnce(async ({ shippingNumbers: numbers }) => {
        // NOWAIT fails at once (55P03) if a transaction of the delete already holds the row.
        const db = await getDb();
        await db.transaction(async (tx) => {
          await tx.execute(sql`select id from shipping_orders where id = ${doomed.id} for update nowait`);
        });
        seen.push(...numbers);
      });
      expect((await remove(doomed.id)).status).toBe(204);
      expect(seen).toEqual(doomed.shippingNumber);
      expect(
        (await as(partner)(item.GET, `/api/v2/shipping-orders/${doomed.id}`, { params: { id: doomed.id } })).status,
      ).toBe(404);
    });

    it("failing leaves the order as it was and answers 503 to retry", async () => {
      const kept = await createOrder(partner, order({ ReferenceNumber: "DEL-REFUSED" }));
      vi.spyOn(sandboxCourier, "cancelShipment").mockRejectedValueOnce(new Error("courier down"));
      const refused = await remove(kept.id);
      expect(refused.status).toBe(503);
      expect((await readJson<{ detail: string }>(refused)).detail).toMatch(/could not cancel/);
      const got = await as(partner)(item.GET, `/api/v2/shipping-orders/${kept.id}`, { params: { id: kept.id } });
      expect(got.status).toBe(200);
      expect((await remove(kept.id)).status).toBe(204);
    });

    it("a courier that no longer allows the cancel: 409 COURIER_CANNOT_CANCEL, and the order stays", async () => {
      const kept = await createOrder(partner, order({ ReferenceNumber: "DEL-TOO-LATE" }));
      vi.spyOn(sandboxCourier, "cancelShipment").mockRejectedValueOnce(
        new CourierError("COURIER_CANNOT_CANCEL", "The packet is already on its way."),
      );
      const refused = await remove(kept.id);
      expect(refused.status).toBe(409);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      const problem = await readJson<{ code: string; detail: string }>(refused);
      expect(problem.code).toBe("COURIER_CANNOT_CANCEL");
      expect(problem.detail).toContain("already on its way");
      const got = await as(partner)(item.GET, `/api/v2/shipping-orders/${kept.id}`, { params: { id: kept.id } });
      expect(got.status).toBe(200);
    });
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
