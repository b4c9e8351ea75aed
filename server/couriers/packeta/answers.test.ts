import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallContext, ShipmentRef, ShipmentRequest } from "../adapter";
import { CourierError } from "../adapter";
import { packetaCourier as packeta } from "./adapter";
import { buildXml, parsePacketaXml } from "./client";
import { startFakePacketa } from "./fake-server";
import type { PacketaSettings } from "./settings";

/** How the adapter reads Packeta's answers: the words of its faults, the fields they name, the labels it sends. */

const PASSWORD = "0123456789abcdef0123456789abcdef";
const settings: PacketaSettings = { apiPassword: PASSWORD, sender: "my-shop", homeDeliveryCarriers: { CZ: 106 } };
const ctx = (timeoutMs = 5000): CallContext => ({
  signal: AbortSignal.timeout(timeoutMs),
  timeoutMs,
  now: () => new Date(),
  allocateNumbers: () => Promise.reject(new Error("Packeta numbers its own packets")),
});
const parcel = (weight: number) => ({ weight, length: null, width: null, height: null, reference: null });
const homeOrder = (overrides: Partial<ShipmentRequest> = {}): ShipmentRequest => ({
  referenceNumber: "HOME-1",
  externalReference: null,
  service: "HOME",
  note: null,
  pickupPoint: null,
  recipient: {
    name: "Jana Nováková",
    company: null,
    street: "Hlavní 12, byt 3",
    city: "Praha",
    zip: "110 00",
    country: "CZ",
    email: "jana@example.com",
    phone: "+420601123456",
  },
  parcels: [parcel(1.2)],
  codPrice: null,
  codCurrency: null,
  variableSymbol: null,
  insurancePrice: 500,
  ...overrides,
});
/** The fake's rule: a HOME packet (it has a street) whose carrier id Packeta does not know is refused at addressId. */
const unknownCarrier = (a: Record<string, unknown>) =>
  a.street !== undefined && String(a.addressId) === "999" ? { name: "addressId", fault: "Unknown carrier." } : null;

let fake: Awaited<ReturnType<typeof startFakePacketa>>;
beforeAll(async () => {
  fake = await startFakePacketa({ password: PASSWORD });
});
afterAll(() => fake.close());
beforeEach(() => {
  process.env.COURIER_PACKETA_URL = fake.url;
  fake.setRefusal(unknownCarrier);
});

describe("Packeta's refusals, at the right field and in its own words", () => {
  it("a HOME packet's carrier-id fault is at Recipient.Country (the profile's carrier for it), not PickupPoint", async () => {
    const wrongCarrier = { ...settings, homeDeliveryCarriers: { CZ: 999 } };
    // One packet (createPacket) and several (createPackets, each result's own fault) both name the right field.
    const [one] = await packeta.createShipments([homeOrder()], wrongCarrier, ctx());
    const [first, second] = await packeta.createShipments(
      [homeOrder(), homeOrder({ referenceNumber: "HOME-2", parcels: [parcel(1), parcel(2)] })],
      wrongCarrier,
      ctx(),
    );
    for (const outcome of [one, first, second])
      expect(outcome).toEqual({
        ok: false,
        code: "COURIER_REJECTED",
        message: "Packeta: addressId: Unknown carrier.",
        field: "Recipient.Country",
      });
    // A pickup point's addressId stays PickupPoint.
    fake.setRefusal((a) => (String(a.addressId) === "4321" ? { name: "addressId", fault: "Unknown branch." } : null));
    const [pickup] = await packeta.createShipments(
      [homeOrder({ service: "PICKUP_POINT", pickupPoint: "4321" })],
      settings,
      ctx(),
    );
    expect(pickup).toMatchObject({ ok: false, field: "PickupPoint" });
  });

  it("a refused API password carries Packeta's own words, in the check and in a create, never the password", async () => {
    const wrong = { ...settings, apiPassword: "e".repeat(32) };
    const check = await packeta.checkCredentials(wrong, ctx());
    expect(check).toEqual({
      ok: false,
      code: "COURIER_AUTH_FAILED",
      message: expect.stringContaining("Incorrect API password."),
    });
    const [created] = await packeta.createShipments([homeOrder()], wrong, ctx());
    expect(created).toMatchObject({ ok: false, code: "COURIER_AUTH_FAILED" });
    expect(!created?.ok && created.message).toContain("Incorrect API password.");
    expect(JSON.stringify([check, created])).not.toContain("e".repeat(32));
  });
});

describe("Packeta cancel", () => {
  it("a retried cancel of packets Packeta already cancelled succeeds; a live packet it refuses stays refused", async () => {
    const [created] = await packeta.createShipments([homeOrder({ parcels: [parcel(1), parcel(2)] })], settings, ctx());
    if (!created?.ok) throw new Error(JSON.stringify(created));
    const ref = { ...created, createdAt: new Date() };
    await packeta.cancelShipment(ref, settings, ctx());
    // Packeta's CancelNotAllowedFault for a packet in status 11 (cancelled): the retry is done, not refused.
    fake.setMode("cancel-not-allowed");
    try {
      await expect(packeta.cancelShipment(ref, settings, ctx())).resolves.toBeUndefined();
      const [live] = await packeta.createShipments([homeOrder({ referenceNumber: "HOME-LIVE" })], settings, ctx());
      if (!live?.ok) throw new Error(JSON.stringify(live));
      await expect(packeta.cancelShipment({ ...live, createdAt: new Date() }, settings, ctx())).rejects.toMatchObject({
        code: "COURIER_CANNOT_CANCEL",
      });
    } finally {
      fake.setMode("ok");
    }
  });
});

describe("Packeta labels are kept only when they are what was asked", () => {
  /** A Packeta endpoint that answers every label call `ok` with what the test says (an error page, say). */
  let labels: { url: string; answer: Record<string, string>; close: () => Promise<void> };
  beforeAll(async () => {
    const answer: Record<string, string> = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const operation = Object.keys(parsePacketaXml(Buffer.concat(chunks).toString("utf8")) as object)[0] ?? "";
        res
          .writeHead(200, { "content-type": "application/xml" })
          .end(buildXml({ response: { status: "ok", result: answer[operation] ?? "" } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    labels = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/rest`,
      answer,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  });
  afterAll(() => labels.close());

  const shipment = (packetIds: string[]): ShipmentRef => ({
    referenceNumber: "ORDER-1",
    shippingNumbers: packetIds.map((id) => `Z${id}`),
    courierData: { packetIds },
    createdAt: new Date(),
  });
  const refusal = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (error) {
      if (error instanceof CourierError) return { code: error.code, message: error.message };
      throw error;
    }
    return "stored";
  };
  const base64 = (text: string) => Buffer.from(text).toString("base64");

  it("a PDF label that is not a PDF (an error page, nothing) is COURIER_UNAVAILABLE, not a label", async () => {
    process.env.COURIER_PACKETA_URL = labels.url;
    for (const body of ["<html>Service unavailable</html>", ""]) {
      labels.answer.packetLabelPdf = base64(body);
      labels.answer.packetsLabelsPdf = base64(body);
      for (const format of ["pdf-a6", "pdf-a4"] as const)
        for (const ids of [["1"], ["1", "2"]])
          expect(await refusal(packeta.fetchLabel!(shipment(ids), format, settings, ctx()))).toEqual({
            code: "COURIER_UNAVAILABLE",
            message: "Packeta answered a label that is not a PDF.",
          });
    }
    labels.answer.packetLabelPdf = base64("%PDF-1.7\n%fake\n");
    expect(await packeta.fetchLabel!(shipment(["1"]), "pdf-a6", settings, ctx())).toMatchObject({
      contentType: "application/pdf",
    });
  });

  it("a ZPL label that is not ZPL is COURIER_UNAVAILABLE; ZPL (^XA) is kept", async () => {
    process.env.COURIER_PACKETA_URL = labels.url;
    labels.answer.packetLabelZpl = "Service unavailable";
    expect(await refusal(packeta.fetchLabel!(shipment(["1", "2"]), "zpl", settings, ctx()))).toEqual({
      code: "COURIER_UNAVAILABLE",
      message: "Packeta answered a label that is not ZPL.",
    });
    labels.answer.packetLabelZpl = "^XA^FDPacket^FS^XZ";
    const label = await packeta.fetchLabel!(shipment(["1", "2"]), "zpl", settings, ctx());
    expect(new TextDecoder().decode(label.body)).toBe("^XA^FDPacket^FS^XZ\n^XA^FDPacket^FS^XZ");
  });

  it("the fake's labels pass the check (a real PDF per format, ZPL at 203 dpi)", async () => {
    const [created] = await packeta.createShipments([homeOrder({ parcels: [parcel(1), parcel(2)] })], settings, ctx());
    if (!created?.ok) throw new Error(JSON.stringify(created));
    const ref = { ...created, createdAt: new Date() };
    for (const format of ["pdf-a6", "pdf-a4", "zpl"] as const)
      expect((await packeta.fetchLabel!(ref, format, settings, ctx())).body.byteLength).toBeGreaterThan(0);
  });
});
