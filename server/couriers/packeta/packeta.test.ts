import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallContext, ShipmentRequest } from "../adapter";
import { packetaCourier as packeta } from "./adapter";
import { requestXml } from "./client";
import { startFakePacketa } from "./fake-server";
import { packetAttributes, splitName, splitStreet } from "./mapping";
import type { PacketaSettings } from "./settings";

const PASSWORD = "0123456789abcdef0123456789abcdef";
const settings: PacketaSettings = { apiPassword: PASSWORD, sender: "my-shop", homeDeliveryCarriers: { CZ: 106 } };
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8").trim();

const order = (overrides: Partial<ShipmentRequest> = {}): ShipmentRequest => ({
  referenceNumber: "ORDER-1001",
  externalReference: null,
  service: "PICKUP_POINT",
  note: null,
  pickupPoint: "4321",
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
  parcels: [{ weight: 1.2, length: null, width: null, height: null, reference: null }],
  codPrice: 499,
  codCurrency: "CZK",
  variableSymbol: null,
  insurancePrice: null,
  ...overrides,
});

const ctx = (timeoutMs = 2000): CallContext => ({
  signal: AbortSignal.timeout(timeoutMs),
  timeoutMs,
  now: () => new Date(),
});

let fake: Awaited<ReturnType<typeof startFakePacketa>>;
beforeAll(async () => {
  fake = await startFakePacketa({ password: PASSWORD });
  process.env.COURIER_PACKETA_URL = fake.url;
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setMode("ok");
  fake.setDelay(0);
  fake.requests.length = 0;
});

describe("the Packeta mapping", () => {
  it("serialises createPacket exactly as the fixture (Karrio-style: request fixture per operation)", () => {
    expect(requestXml("createPacket", PASSWORD, { packetAttributes: packetAttributes(order(), 0, settings) })).toBe(
      fixture("create-packet.request.xml"),
    );
  });

  it("splits names and streets as documented, and puts COD and value on the first packet only", () => {
    expect(splitName("Jana Nováková")).toEqual({ name: "Jana", surname: "Nováková" });
    expect(splitName("Cher")).toEqual({ name: undefined, surname: "Cher" });
    expect(splitStreet("Dlouhá 12")).toEqual({ street: "Dlouhá", houseNumber: "12" });
    expect(splitStreet("Na Příkopě 15/3a")).toEqual({ street: "Na Příkopě", houseNumber: "15/3a" });
    expect(splitStreet("Náměstí")).toEqual({ street: "Náměstí", houseNumber: undefined });
    const two = order({ parcels: [order().parcels[0]!, { ...order().parcels[0]!, weight: 3 }] });
    expect(packetAttributes(two, 1, settings)).toMatchObject({ cod: undefined, value: "0.00", weight: 3 });
    const home = packetAttributes(order({ service: "HOME" }), 0, settings);
    expect(home).toMatchObject({ addressId: 106, street: "Dlouhá", houseNumber: "12", city: "Praha", zip: "110 00" });
  });

  it("states Packeta's limits at validate time, before any call", () => {
    const codes = (o: ShipmentRequest) => packeta.validate(o, settings).map((m) => `${m.code}@${m.field}`);
    expect(codes(order())).toEqual([]);
    expect(codes(order({ referenceNumber: "R".repeat(25) }))).toContain("TOO_LONG@ReferenceNumber");
    expect(codes(order({ codCurrency: "USD" }))).toContain("COD_NOT_SUPPORTED@CodCurrency");
    expect(codes(order({ codPrice: null, codCurrency: null }))).toContain("REQUIRED@InsurancePrice");
    expect(codes(order({ pickupPoint: null }))).toContain("REQUIRED@PickupPoint");
    expect(codes(order({ service: "HOME", recipient: { ...order().recipient, country: "SK" } }))).toContain(
      "UNSUPPORTED_COUNTRY@Recipient.Country",
    );
    expect(packeta.settings.schema.safeParse({ ...settings, extra: 1 }).success).toBe(false);
    expect(packeta.settings.schema.safeParse({ ...settings, apiPassword: "short" }).success).toBe(false);
  });
});

describe("the Packeta adapter against the fake", () => {
  it("creates one packet per parcel: shipping numbers are the barcodes, the request as mapped", async () => {
    const two = order({ parcels: [order().parcels[0]!, { ...order().parcels[0]!, weight: 2.5 }] });
    const [outcome] = await packeta.createShipments([two], settings, ctx());
    expect(outcome).toMatchObject({ ok: true, referenceNumber: "ORDER-1001" });
    if (!outcome!.ok) throw new Error("refused");
    expect(outcome!.shippingNumbers).toHaveLength(2);
    expect(outcome!.shippingNumbers.every((n) => /^Z\d+$/.test(n))).toBe(true);
    const creates = fake.requests.filter((r) => r.operation === "createPacket");
    expect(creates.map((r) => (r.body.packetAttributes as { weight: string }).weight)).toEqual(["1.2", "2.5"]);
    expect(creates[0]!.body.packetAttributes).toMatchObject({
      number: "ORDER-1001",
      eshop: "my-shop",
      addressId: "4321",
    });
  });

  it("maps a refusal to COURIER_REJECTED with Packeta's message and the field, wrong password to COURIER_AUTH_FAILED", async () => {
    fake.setMode("refuse");
    const [refused] = await packeta.createShipments([order()], settings, ctx());
    expect(refused).toEqual({
      ok: false,
      code: "COURIER_REJECTED",
      message: "Packeta: zip: Invalid ZIP code.",
      field: "Recipient.Zip",
    });
    fake.setMode("ok");
    const wrong = { ...settings, apiPassword: "f".repeat(32) };
    const [auth] = await packeta.createShipments([order()], wrong, ctx());
    expect(auth).toMatchObject({ ok: false, code: "COURIER_AUTH_FAILED" });
    expect(JSON.stringify(auth)).not.toContain("f".repeat(32));
  });

  it("maps 5xx to COURIER_UNAVAILABLE and no answer to COURIER_TIMEOUT within the timeout", async () => {
    fake.setMode("5xx");
    expect((await packeta.createShipments([order()], settings, ctx()))[0]).toMatchObject({
      ok: false,
      code: "COURIER_UNAVAILABLE",
    });
    fake.setMode("hang");
    const started = Date.now();
    expect((await packeta.createShipments([order()], settings, ctx(300)))[0]).toMatchObject({
      ok: false,
      code: "COURIER_TIMEOUT",
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("keeps at most 8 calls in flight per profile", async () => {
    fake.setDelay(50);
    fake.state.maxInFlight = 0;
    const many = Array.from({ length: 30 }, (_, i) => order({ referenceNumber: `BULK-${i}` }));
    const outcomes = await packeta.createShipments(many, settings, ctx(10_000));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(fake.state.maxInFlight).toBeLessThanOrEqual(8);
    expect(fake.state.maxInFlight).toBeGreaterThan(1);
  });

  it("cancels every packet, and says when Packeta no longer allows it", async () => {
    const [created] = await packeta.createShipments([order()], settings, ctx());
    if (!created!.ok) throw new Error("refused");
    const ref = {
      referenceNumber: "ORDER-1001",
      shippingNumbers: created!.shippingNumbers,
      courierData: created!.courierData,
      createdAt: new Date(),
    };
    await packeta.cancelShipment(ref, settings, ctx());
    expect(fake.requests.at(-1)).toMatchObject({ operation: "cancelPacket" });
    fake.setMode("cancel-not-allowed");
    await expect(packeta.cancelShipment(ref, settings, ctx())).rejects.toMatchObject({ code: "COURIER_CANNOT_CANCEL" });
  });

  it("fetches labels in the three formats, and tracks with the contract's status table", async () => {
    const [created] = await packeta.createShipments([order()], settings, ctx());
    if (!created!.ok) throw new Error("refused");
    const ref = {
      referenceNumber: "ORDER-1001",
      shippingNumbers: created!.shippingNumbers,
      courierData: created!.courierData,
      createdAt: new Date(),
    };
    const a6 = await packeta.fetchLabel(ref, "pdf-a6", settings, ctx());
    expect(a6.contentType).toBe("application/pdf");
    expect(Buffer.from(a6.body).toString()).toContain("A6 on A6");
    expect(Buffer.from((await packeta.fetchLabel(ref, "pdf-a4", settings, ctx())).body).toString()).toContain(
      "A6 on A4",
    );
    expect(Buffer.from((await packeta.fetchLabel(ref, "zpl", settings, ctx())).body).toString()).toMatch(
      /^\^XA.*203 dpi/,
    );
    const packetId = String((created!.courierData.packetIds as string[])[0]);
    for (const [code, status] of [
      [2, "HANDED_OVER"],
      [4, "IN_TRANSIT"],
      [16, "OUT_FOR_DELIVERY"],
      [7, "DELIVERED"],
      [10, "RETURNED"],
      [11, "CANCELLED"],
    ] as const) {
      fake.setStatus(packetId, code);
      const [result] = await packeta.track([ref], settings, ctx());
      expect(result!.events.map((e) => e.status)).toEqual([status]);
    }
    const [tracked] = await packeta.track([ref], settings, ctx());
    expect(tracked!.events[0]!.description).toBe("Packet is ready for pickup at the pickup point.");
  });

  it("checks credentials with the cheapest authenticated call", async () => {
    expect(await packeta.checkCredentials(settings, ctx())).toEqual({ ok: true });
    const wrong = await packeta.checkCredentials({ ...settings, apiPassword: "e".repeat(32) }, ctx());
    expect(wrong).toMatchObject({ ok: false, code: "COURIER_AUTH_FAILED" });
    expect(fake.requests.at(-1)).toMatchObject({ operation: "senderGetReturnRouting" });
  });
});
