import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallContext, CreateOutcome, ShipmentRef, ShipmentRequest } from "../adapter";
import { pplCourier as ppl } from "./adapter";
import { clearPplTokens } from "./client";
import { startFakePpl, type FakePpl } from "./fake-server";
import type { PplSettings } from "./settings";

/** PPL labels kept only in the format and size asked, and a cancel that can be retried. */

const settings: PplSettings = { clientId: "labels-client", clientSecret: "labels-secret-0123456789" };
const ctx = (timeoutMs = 5000): CallContext => ({
  signal: AbortSignal.timeout(timeoutMs),
  timeoutMs,
  now: () => new Date(),
  allocateNumbers: () => Promise.reject(new Error("PPL numbers its own shipments")),
});
const parcel = (weight: number) => ({ weight, length: null, width: null, height: null, reference: null });
const order = (referenceNumber: string, parcels = [parcel(1.2)]): ShipmentRequest => ({
  referenceNumber,
  externalReference: null,
  service: "PRIVATE",
  note: null,
  pickupPoint: null,
  recipient: {
    name: "Jana Nováková",
    company: null,
    street: "Dlouhá 12",
    city: "Praha",
    zip: "110 00",
    country: "CZ",
    email: "jana@example.com",
    phone: "+420601123456",
  },
  parcels,
  codPrice: null,
  codCurrency: null,
  variableSymbol: null,
  insurancePrice: null,
});
const refOf = (outcome: CreateOutcome | undefined): ShipmentRef => {
  if (!outcome?.ok) throw new Error(`not created: ${JSON.stringify(outcome)}`);
  return { ...outcome, createdAt: new Date() };
};
const refusal = async (call: Promise<unknown>) => {
  try {
    await call;
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  return "succeeded";
};

let fake: FakePpl;
beforeAll(async () => {
  fake = await startFakePpl({ clientId: settings.clientId, clientSecret: settings.clientSecret });
  process.env.COURIER_PPL_URL = fake.url;
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setMode("ok");
  fake.requests.length = 0;
  clearPplTokens();
});
const apiCalls = () => fake.requests.filter((r) => r.path !== "/login/getAccessToken");

describe("PPL labels", () => {
  it("never keeps PPL's default-size label as A4, nor asks a label URL for parameters PPL does not define", async () => {
    const ref = refOf((await ppl.createShipments([order("LBL-1", [parcel(1), parcel(2)])], settings, ctx()))[0]);
    // The batch's label endpoint cannot be had (an unknown batch: 404), the parcels' label URLs can.
    const noBatch = { ...ref, courierData: { ...ref.courierData, batchId: "00000000-0000-0000-0000-000000000000" } };
    fake.requests.length = 0;
    for (const format of ["pdf-a4", "zpl"] as const)
      expect(await refusal(ppl.fetchLabel!(noBatch, format, settings, ctx()))).toMatchObject({
        code: "COURIER_UNAVAILABLE",
      });
    // Neither A4 nor ZPL was asked of a label URL: PPL's `GET /data/{dataGuid}` has no pageSize/format/dpi.
    expect(apiCalls().filter((r) => r.path.startsWith("/data/"))).toEqual([]);

    // The default size comes from the label URLs, asked exactly as PPL named them.
    fake.requests.length = 0;
    const a6 = await ppl.fetchLabel!(noBatch, "pdf-a6", settings, ctx());
    const dataCalls = apiCalls().filter((r) => r.path.startsWith("/data/"));
    expect(dataCalls).toHaveLength(2);
    for (const call of dataCalls) expect(call.query).toEqual({});
    const pages = (await PDFDocument.load(a6.body)).getPages().map((p) => p.getSize());
    expect(pages).toHaveLength(2);
    for (const { width, height } of pages) expect(Math.max(width, height)).toBeLessThan(800);
  });

  it("keeps an A4 label only when its pages are A4 (from the batch endpoint)", async () => {
    const ref = refOf((await ppl.createShipments([order("LBL-2")], settings, ctx()))[0]);
    const a4 = await ppl.fetchLabel!(ref, "pdf-a4", settings, ctx());
    const [page] = (await PDFDocument.load(a4.body)).getPages();
    expect([page!.getWidth(), page!.getHeight()].map(Math.round)).toEqual([595, 842]);
  });
});

describe("PPL cancel", () => {
  it("a retried cancel of a shipment PPL already cancelled succeeds; one PPL no longer allows stays refused", async () => {
    const ref = refOf((await ppl.createShipments([order("CXL-1", [parcel(1), parcel(2)])], settings, ctx()))[0]);
    await ppl.cancelShipment(ref, settings, ctx());
    expect(fake.shipment(ref.shippingNumbers[0]!)?.phase).toBe("Canceled");
    // The DELETE is retried (its commit was lost, or the partner sent it twice): PPL refuses the cancel with a 400
    // (its documented answer), the shipment is cancelled, so the cancel is done.
    fake.requests.length = 0;
    expect(await refusal(ppl.cancelShipment(ref, settings, ctx()))).toBe("succeeded");
    expect(apiCalls()[0]).toMatchObject({ method: "POST", path: `/shipment/${ref.shippingNumbers[0]}/cancel` });
    expect(apiCalls()[1]).toMatchObject({
      method: "GET",
      path: "/shipment",
      query: { ShipmentNumbers: [ref.shippingNumbers[0]] },
    });

    // A shipment PPL has picked up: refused, and PPL's words kept.
    const live = refOf((await ppl.createShipments([order("CXL-2")], settings, ctx()))[0]);
    fake.setMode("cancel-not-allowed");
    expect(await refusal(ppl.cancelShipment(live, settings, ctx()))).toEqual({
      code: "COURIER_CANNOT_CANCEL",
      message: expect.stringContaining("can no longer be cancelled"),
    });
  });
});
