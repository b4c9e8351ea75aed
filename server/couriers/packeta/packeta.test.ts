import fc from "fast-check";
import { PDFDocument } from "pdf-lib";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallContext, CreateOutcome, Shipment, ShipmentRef, ShipmentRequest } from "../adapter";
import { packetaCourier as packeta, PACKETS_PER_CALL } from "./adapter";
import { parsePacketaXml, requestXml } from "./client";
import { refuseByReference, startFakePacketa } from "./fake-server";
import { wsdlFaultsOf } from "./fake-wsdl";
import { packetAttributes, packetValues, splitName, splitStreet } from "./mapping";
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
  allocateNumbers: () => Promise.reject(new Error("Packeta numbers its own packets")),
});

const parcel = (weight: number) => ({ weight, length: null, width: null, height: null, reference: null });
/** The two-order, three-parcel batch of `fixtures/create-packets.request.xml`. */
const fixtureBatch = (): ShipmentRequest[] => [
  order({ parcels: [parcel(1.2), parcel(2.5)] }),
  order({
    referenceNumber: "ORDER-1002",
    service: "HOME",
    pickupPoint: null,
    note: "Ring twice",
    recipient: { ...order().recipient, name: "Petr Svoboda", company: "Svoboda s.r.o.", street: "Na Příkopě 15/3a" },
    parcels: [{ weight: 3, length: 30, width: 20, height: 10.5, reference: null }],
    codPrice: null,
    codCurrency: null,
    insurancePrice: 1200,
  }),
];
const createdOf = (outcome: CreateOutcome | undefined): Shipment => {
  if (!outcome?.ok) throw new Error(`not created: ${JSON.stringify(outcome)}`);
  return outcome;
};
const refOf = (outcome: CreateOutcome | undefined): ShipmentRef => ({ ...createdOf(outcome), createdAt: new Date() });
const packetIdsOf = (outcome: CreateOutcome | undefined) => refOf(outcome).courierData.packetIds as string[];
const createCalls = () => fake.requests.filter((r) => r.operation === "createPackets");
const packetsIn = (request: { body: Record<string, unknown> }) => {
  const attributes = (request.body.packets as { attributes: unknown }).attributes;
  return Array.isArray(attributes) ? attributes.length : 1;
};
/** POSTs a raw body to a fake, as Packeta's REST endpoint takes it. */
const post = async (url: string, xml: string) => (await fetch(url, { method: "POST", body: xml })).text();

let fake: Awaited<ReturnType<typeof startFakePacketa>>;
beforeAll(async () => {
  fake = await startFakePacketa({ password: PASSWORD });
  process.env.COURIER_PACKETA_URL = fake.url;
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setMode("ok");
  fake.setDelay(0);
  fake.setRefusal();
  fake.requests.length = 0;
});

describe("the Packeta mapping", () => {
  it("serialises createPacket exactly as the fixture (Karrio-style: request fixture per operation)", () => {
    expect(requestXml("createPacket", PASSWORD, { packetAttributes: packetAttributes(order(), 0, settings) })).toBe(
      fixture("create-packet.request.xml"),
    );
  });

  it("splits names and streets as documented, puts COD on the first packet and shares the value", () => {
    expect(splitName("Jana Nováková")).toEqual({ name: "Jana", surname: "Nováková" });
    expect(splitName("Cher")).toEqual({ name: "Cher", surname: "" });
    expect(splitStreet("Dlouhá 12")).toEqual({ street: "Dlouhá", houseNumber: "12" });
    expect(splitStreet("Na Příkopě 15/3a")).toEqual({ street: "Na Příkopě", houseNumber: "15/3a" });
    expect(splitStreet("Náměstí")).toEqual({ street: "Náměstí", houseNumber: undefined });
    const two = order({ parcels: [order().parcels[0]!, { ...order().parcels[0]!, weight: 3 }] });
    expect(packetAttributes(two, 0, settings)).toMatchObject({ cod: "499.00", value: "249.50", weight: 1.2 });
    expect(packetAttributes(two, 1, settings)).toMatchObject({ cod: undefined, value: "249.50", weight: 3 });
    const home = packetAttributes(order({ service: "HOME" }), 0, settings);
    expect(home).toMatchObject({ addressId: 106, street: "Dlouhá", houseNumber: "12", city: "Praha", zip: "110 00" });
  });

  it("states Packeta's limits at validate time, before any call", () => {
    const codes = (o: ShipmentRequest) => packeta.validate(o, settings).map((m) => `${m.code}@${m.field}`);
    expect(codes(order())).toEqual([]);
    expect(codes(order({ referenceNumber: "R".repeat(25) }))).toContain("TOO_LONG@ReferenceNumber");
    expect(codes(order({ codCurrency: "USD" }))).toContain("COD_NOT_SUPPORTED@CodCurrency");
    expect(codes(order({ codPrice: null, codCurrency: null }))).toContain("REQUIRED@InsurancePrice");
    expect(codes(order({ pickupPoint: "Praha 1" }))).toContain("INVALID_FORMAT@PickupPoint");
    // A missing one is the platform's own REQUIRED (the service needs a pickup point), not said twice.
    expect(codes(order({ pickupPoint: null }))).not.toContain("REQUIRED@PickupPoint");
    expect(codes(order({ service: "HOME", recipient: { ...order().recipient, country: "SK" } }))).toContain(
      "UNSUPPORTED_COUNTRY@Recipient.Country",
    );
    expect(packeta.settings.schema.safeParse({ ...settings, extra: 1 }).success).toBe(false);
    expect(packeta.settings.schema.safeParse({ ...settings, apiPassword: "short" }).success).toBe(false);
  });
});

describe("the Packeta mapping against the WSDL's rules (issue 28)", () => {
  const codes = (o: ShipmentRequest) => packeta.validate(o, settings).map((m) => `${m.code}@${m.field}`);
  const home = (recipient: Partial<ShipmentRequest["recipient"]>) =>
    order({ service: "HOME", pickupPoint: null, recipient: { ...order().recipient, ...recipient } });

  it("the fake refuses what packeta.wsdl refuses, naming each attribute in one PacketAttributesFault", async () => {
    const attributes = {
      ...packetAttributes(order(), 0, settings),
      name: "N".repeat(33),
      surname: undefined,
      company: "C".repeat(33),
      email: "no-at-sign",
      addressId: "Praha 1",
      cod: "1.005",
      value: "12.345",
      weight: "1.2345",
      currency: "CZKK",
      street: "S".repeat(65),
      houseNumber: "1".repeat(17),
      city: "C".repeat(33),
      size: { length: "300", width: "20.5" },
      colour: "red",
    };
    const answer = await post(fake.url, requestXml("createPacket", PASSWORD, { packetAttributes: attributes }));
    expect(answer).toContain("<fault>PacketAttributesFault</fault>");
    const named = [...answer.matchAll(/<fault><name>(\w+)<\/name>/g)].map((m) => m[1]);
    expect(named).toEqual([
      "name",
      "surname",
      "company",
      "email",
      "addressId",
      "cod",
      "currency",
      "value",
      "weight",
      "street",
      "houseNumber",
      "city",
      "size",
      "colour",
    ]);
    // The adapter reports the first one at its field.
    const [outcome] = await packeta.createShipments(
      [order({ recipient: { ...order().recipient, company: "C".repeat(33) } })],
      settings,
      ctx(),
    );
    expect(outcome).toMatchObject({ ok: false, code: "COURIER_REJECTED", field: "Recipient.Company" });
    expect(fake.requests.filter((r) => r.operation.startsWith("create"))).toHaveLength(2);
  });

  it("every order validate accepts is accepted by the WSDL's rules", () => {
    const orders = [
      ...fixtureBatch(),
      order({ recipient: { ...order().recipient, name: "Cher" } }),
      order({ parcels: [parcel(0.0004 + 1), parcel(2.1234567), parcel(3)], insurancePrice: 1000.01 }),
      home({ name: `${"J".repeat(32)} ${"N".repeat(32)}`, company: "C".repeat(32), city: "C".repeat(32) }),
      home({ street: `${"S".repeat(64)} ${"1".repeat(16)}` }),
    ];
    for (const o of orders) {
      expect(codes(o)).toEqual([]);
      o.parcels.forEach((_, i) => expect(wsdlFaultsOf(toStrings(packetAttributes(o, i, settings)))).toEqual([]));
    }
  });

  it("any order validate accepts is a packet the WSDL accepts, through Packeta's XML (property)", () => {
    // Words of every length up to `max` (not biased to short ones), of letters Packeta's XML must carry as they are.
    const text = (max: number) =>
      fc
        .integer({ min: 1, max })
        .chain((n) => fc.string({ unit: fc.constantFrom(..."AbŽžя09.,&<'/-"), minLength: n, maxLength: n }));
    const arbitraryOrder = fc.record({
      service: fc.constantFrom("PICKUP_POINT", "HOME"),
      // Lengths around Packeta's limits (the platform takes up to 100), so both sides of each limit are tried.
      name: fc.tuple(text(34), fc.option(text(34))).map(([a, b]) => (b === null ? a : `${a} ${b}`)),
      company: fc.option(text(36)),
      street: fc
        .tuple(
          text(68),
          fc.option(
            fc
              .integer({ min: 0, max: 16 })
              .chain((n) => fc.string({ unit: fc.constantFrom(..."0123456789aB/-"), minLength: n, maxLength: n }))
              .map((n) => `1${n}`),
          ),
        )
        .map(([a, b]) => (b === null ? a : `${a} ${b}`)),
      city: text(36),
      weights: fc.array(fc.double({ min: 0.0001, max: 15, noNaN: true }), { minLength: 1, maxLength: 20 }),
      dims: fc.option(fc.tuple(fc.double({ min: 0.1, max: 300, noNaN: true }), fc.integer({ min: 1, max: 300 }))),
      codPrice: fc.option(fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100)),
      insurancePrice: fc.option(fc.double({ min: 0.01, max: 1_000_000, noNaN: true })),
    });
    fc.assert(
      fc.property(arbitraryOrder, (g) => {
        const o = order({
          service: g.service,
          pickupPoint: g.service === "HOME" ? null : "4321",
          recipient: { ...order().recipient, name: g.name, company: g.company, street: g.street, city: g.city },
          parcels: g.weights.map((weight) => ({
            weight,
            length: g.dims?.[0] ?? null,
            width: g.dims?.[1] ?? null,
            height: g.dims?.[1] ?? null,
            reference: null,
          })),
          codPrice: g.codPrice,
          codCurrency: g.codPrice === null ? null : "CZK",
          insurancePrice: g.insurancePrice,
        });
        if (packeta.validate(o, settings).some((m) => m.severity === "ERROR")) return;
        o.parcels.forEach((_, i) => {
          const xml = requestXml("createPacket", PASSWORD, { packetAttributes: packetAttributes(o, i, settings) });
          const parsed = parsePacketaXml(xml) as { createPacket: { packetAttributes: Record<string, unknown> } };
          expect(wsdlFaultsOf(parsed.createPacket.packetAttributes)).toEqual([]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("sends a one-word name as the name Packeta requires (with an empty surname), and the fake registers it", async () => {
    const cher = order({ recipient: { ...order().recipient, name: "Cher" } });
    expect(packetAttributes(cher, 0, settings)).toMatchObject({ name: "Cher", surname: "" });
    const [outcome] = await packeta.createShipments([cher], settings, ctx());
    expect(outcome).toMatchObject({ ok: true });
    expect(fake.requests[0]!.xml).toContain("<name>Cher</name><surname/>");
  });

  it("states Packeta's lengths at validate: company, and for HOME city, street and house number", () => {
    expect(codes(order({ recipient: { ...order().recipient, company: "C".repeat(33) } }))).toEqual([
      "TOO_LONG@Recipient.Company",
    ]);
    expect(codes(home({ city: "C".repeat(33) }))).toEqual(["TOO_LONG@Recipient.City"]);
    expect(codes(home({ street: `${"S".repeat(65)} 12` }))).toEqual(["TOO_LONG@Recipient.Street"]);
    expect(codes(home({ street: `Dlouhá ${"1".repeat(17)}` }))).toEqual(["TOO_LONG@Recipient.Street"]);
    expect(packeta.validate(home({ street: `Dlouhá ${"1".repeat(17)}` }), settings)[0]!.message).toContain(
      "house number",
    );
    // A pickup point is its own address: the recipient's street and city are not sent, so not limited.
    expect(codes(order({ recipient: { ...order().recipient, city: "C".repeat(40) } }))).toEqual([]);
  });

  it("rounds weights to the WSDL's three decimals (grams), and refuses one that rounds to nothing", async () => {
    const heavy = order({ parcels: [parcel(1.23456)] });
    expect(packetAttributes(heavy, 0, settings).weight).toBe(1.235);
    expect(await packeta.createShipments([heavy], settings, ctx())).toMatchObject([{ ok: true }]);
    expect(fake.requests[0]!.xml).toContain("<weight>1.235</weight>");
    expect(codes(order({ parcels: [parcel(1), parcel(0.0004)] }))).toEqual(["OUT_OF_RANGE@Parcels[1].Weight"]);
  });

  it("sends size (mm) when a parcel has its three dimensions, for HOME as for pickup points", () => {
    const sized = { weight: 1, length: 30, width: 20.04, height: 10, reference: null };
    expect(packetAttributes(home({}), 0, settings).size).toBeUndefined();
    expect(packetAttributes({ ...home({}), parcels: [sized] }, 0, settings).size).toEqual({
      length: 300,
      width: 200,
      height: 100,
    });
    expect(packetAttributes(order({ parcels: [sized] }), 0, settings).size).toEqual({
      length: 300,
      width: 200,
      height: 100,
    });
    expect(packetAttributes(order({ parcels: [{ ...sized, height: null }] }), 0, settings).size).toBeUndefined();
  });

  it("shares a multi-parcel order's value across its packets, adding up to the order's, COD on the first", () => {
    const three = order({ codPrice: 100, parcels: [parcel(1), parcel(2), parcel(3)] });
    expect(packetValues(three)).toEqual(["33.34", "33.33", "33.33"]);
    expect([0, 1, 2].map((i) => packetAttributes(three, i, settings).value)).toEqual(["33.34", "33.33", "33.33"]);
    expect([0, 1, 2].map((i) => packetAttributes(three, i, settings).cod)).toEqual(["100.00", undefined, undefined]);
    const insured = order({ insurancePrice: 0.02, parcels: [parcel(1), parcel(2), parcel(3)] });
    expect(packetValues(insured)).toEqual(["0.01", "0.01", "0.00"]);
    expect(packetValues(order({ codPrice: null, codCurrency: null }))).toBeNull();
  });

  it("reports a refused HOME carrier at Recipient.Country (its addressId is the profile's carrier for the country)", async () => {
    fake.setRefusal((a) => (a.addressId === "106" ? { name: "addressId", fault: "Unknown carrier." } : null));
    const outcomes = await packeta.createShipments(
      [home({}), order({ referenceNumber: "PP-1", pickupPoint: "106" })],
      settings,
      ctx(),
    );
    expect(outcomes.map((o) => !o.ok && o.field)).toEqual(["Recipient.Country", "PickupPoint"]);
  });

  it("tracks every packet: DELIVERED only when every packet is, RETURNED when any is", async () => {
    const [created] = await packeta.createShipments([order({ parcels: [parcel(1), parcel(2)] })], settings, ctx());
    const ref = refOf(created);
    const [a, b] = packetIdsOf(created);
    const at = (minute: number) => new Date(`2026-11-24T10:${String(minute).padStart(2, "0")}:00Z`);
    const track = async () => (await packeta.track([ref], settings, ctx()))[0]!.events;
    fake.requests.length = 0;
    fake.setStatus(a!, 7, at(10));
    fake.setStatus(b!, 4, at(5));
    expect(await track()).toEqual([
      { time: at(10), status: "IN_TRANSIT", description: "Packet departed from the depot.", location: null },
    ]);
    expect(fake.requests.map((r) => String(r.body.packetId)).sort()).toEqual([a, b].sort());
    fake.setStatus(b!, 7, at(20));
    expect(await track()).toEqual([
      { time: at(20), status: "DELIVERED", description: "Packet was delivered.", location: null },
    ]);
    fake.setStatus(a!, 10, at(30));
    expect(await track()).toMatchObject([{ time: at(30), status: "RETURNED" }]);
    fake.setStatus(a!, 11, at(40));
    fake.setStatus(b!, 11, at(41));
    expect(await track()).toMatchObject([{ time: at(41), status: "CANCELLED" }]);
  });
});

/** Packet attributes as Packeta's XML carries them (every value a string), for the WSDL's rules. */
function toStrings(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attributes)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === "object" && v !== null ? toStrings(v as Record<string, unknown>) : String(v)]),
  );
}

describe("the Packeta fake", () => {
  it("answers createPackets and packetStatus in the WSDL's shapes (the fixtures)", async () => {
    // Fresh fakes: packet ids count from the fixtures' 4012345678.
    const fresh = await startFakePacketa({ password: PASSWORD, firstId: 4012345678 });
    const refusing = await startFakePacketa({ password: PASSWORD, firstId: 4012345678 });
    try {
      expect(await post(fresh.url, fixture("create-packets.request.xml"))).toBe(fixture("create-packets.response.xml"));
      fresh.setStatus("4012345678", 5, new Date("2026-11-24T10:15:00Z"));
      const status = `<packetStatus><apiPassword>${PASSWORD}</apiPassword><packetId>4012345678</packetId></packetStatus>`;
      expect(await post(fresh.url, status)).toBe(fixture("packet-status.response.xml"));
      // A packet refused inside the answer: `CreatePacketResult` with `fault` and `packetAttributesFault`.
      refusing.setRefusal((a) => (a.weight === "2.5" ? { name: "weight", fault: "Weight is over the limit." } : null));
      expect(await post(refusing.url, fixture("create-packets.request.xml"))).toBe(
        fixture("create-packets-refused.response.xml"),
      );
    } finally {
      await Promise.all([fresh.close(), refusing.close()]);
    }
  });

  it("runs as its own process: prints its URL, answers, refuses REFUSE… references, stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "fake-server-main.ts"), "--password", PASSWORD],
      { cwd: path.resolve(import.meta.dirname, "../../.."), stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      const deadline = Date.now() + 20_000;
      while (!out.includes("\n") && Date.now() < deadline && child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const { url } = JSON.parse(out.split("\n")[0]!) as { url: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/rest$/);
      const previous = process.env.COURIER_PACKETA_URL;
      process.env.COURIER_PACKETA_URL = url;
      try {
        const outcomes = await packeta.createShipments(
          [order(), order({ referenceNumber: "REFUSE-2" })],
          settings,
          ctx(10_000),
        );
        expect(outcomes.map((o) => (o.ok ? "ok" : o.code))).toEqual(["ok", "COURIER_REJECTED"]);
      } finally {
        process.env.COURIER_PACKETA_URL = previous;
      }
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
});

describe("the Packeta adapter against the fake", () => {
  it("sends a two-order, three-parcel batch as one createPackets, exactly the fixture; numbers in parcel order", async () => {
    const outcomes = await packeta.createShipments(fixtureBatch(), settings, ctx());
    expect(fake.requests.map((r) => r.operation)).toEqual(["createPackets"]);
    expect(fake.requests[0]!.xml).toBe(fixture("create-packets.request.xml"));
    expect(outcomes.map((o) => o.ok && o.referenceNumber)).toEqual(["ORDER-1001", "ORDER-1002"]);
    const [first, second] = outcomes.map(createdOf);
    expect(first!.shippingNumbers).toHaveLength(2);
    expect(second!.shippingNumbers).toHaveLength(1);
    // Packets are numbered in request order, so parcel order shows in the ids.
    const ids = [...packetIdsOf(outcomes[0]), ...packetIdsOf(outcomes[1])].map(Number);
    expect(ids).toEqual([ids[0]!, ids[0]! + 1, ids[0]! + 2]);
    expect(first!.shippingNumbers).toEqual(packetIdsOf(outcomes[0]).map((id) => `Z${id}`));
    expect(first!.trackingUrl).toBe(`https://tracking.packeta.com/?id=${first!.shippingNumbers[0]}`);
  });

  it(`puts up to ${PACKETS_PER_CALL} packets in one call, and 250 packets in 3`, async () => {
    const fifty = Array.from({ length: 50 }, (_, i) =>
      order({ referenceNumber: `PAIR-${i}`, parcels: [parcel(1), parcel(2)] }),
    );
    const outcomes = await packeta.createShipments(fifty, settings, ctx());
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(createCalls().map(packetsIn)).toEqual([100]);

    fake.requests.length = 0;
    const many = Array.from({ length: 250 }, (_, i) => order({ referenceNumber: `BULK-${i}` }));
    const bulk = await packeta.createShipments(many, settings, ctx(10_000));
    expect(
      createCalls()
        .map(packetsIn)
        .sort((a, b) => b - a),
    ).toEqual([100, 100, 50]);
    expect(bulk.map((o) => o.ok && o.referenceNumber)).toEqual(many.map((o) => o.referenceNumber));
    expect(new Set(bulk.flatMap(packetIdsOf)).size).toBe(250);
  });

  it("keeps an order's packets in one call when they fit, and splits only an order of more parcels than a call takes", async () => {
    const orders = [
      order({ referenceNumber: "A", parcels: Array.from({ length: 60 }, () => parcel(1)) }),
      order({ referenceNumber: "B", parcels: Array.from({ length: 60 }, () => parcel(1)) }),
      order({ referenceNumber: "C", parcels: Array.from({ length: 130 }, () => parcel(1)) }),
    ];
    const outcomes = await packeta.createShipments(orders, settings, ctx(10_000));
    expect(outcomes.map((o) => (o.ok ? o.shippingNumbers.length : 0))).toEqual([60, 60, 130]);
    expect(
      createCalls()
        .map(packetsIn)
        .sort((a, b) => b - a),
    ).toEqual([100, 60, 60, 30]);
  });

  it("refuses only the orders with a packet refused, with Packeta's words and the field, and cancels their other packets", async () => {
    fake.setRefusal((a) =>
      a.weight === "9" ? { name: "weight", fault: "Weight is over the limit." } : refuseByReference(a),
    );
    const outcomes = await packeta.createShipments(
      [
        order({ referenceNumber: "ORDER-1" }),
        order({ referenceNumber: "REFUSE-2" }),
        order({ referenceNumber: "ORDER-3", parcels: [parcel(1), parcel(9), parcel(2)] }),
        order({ referenceNumber: "ORDER-4", parcels: [parcel(1), parcel(2)] }),
      ],
      settings,
      ctx(),
    );
    expect(createCalls()).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ ok: true, referenceNumber: "ORDER-1" });
    expect(outcomes[1]).toEqual({
      ok: false,
      code: "COURIER_REJECTED",
      message:
        "Packeta: number: test trigger: the local fake Packeta refuses packets whose number (the order's reference) starts with REFUSE.",
      field: "ReferenceNumber",
    });
    expect(outcomes[2]).toEqual({
      ok: false,
      code: "COURIER_REJECTED",
      message: "Packeta: weight: Weight is over the limit.",
      field: "Parcels[].Weight",
    });
    expect(outcomes[3]).toMatchObject({ ok: true, referenceNumber: "ORDER-4" });
    expect(refOf(outcomes[3]).shippingNumbers).toHaveLength(2);
    // ORDER-3's first and third packets were registered: both cancelled, nothing of the other orders.
    const cancelled = fake.requests.filter((r) => r.operation === "cancelPacket").map((r) => String(r.body.packetId));
    expect(cancelled).toHaveLength(2);
    const kept = [...packetIdsOf(outcomes[0]), ...packetIdsOf(outcomes[3])];
    expect(cancelled.filter((id) => kept.includes(id))).toEqual([]);
    const [tracked] = await packeta.track(
      [{ ...refOf(outcomes[0]), courierData: { packetIds: cancelled } }],
      settings,
      ctx(),
    );
    expect(tracked!.events.map((e) => e.status)).toEqual(["CANCELLED"]);
  });

  it("refuses every order of a call refused as a whole (PacketAttributesFault), or with every packet refused", async () => {
    fake.setMode("refuse-call");
    const whole = await packeta.createShipments([order(), order({ referenceNumber: "ORDER-2" })], settings, ctx());
    const refused = {
      ok: false,
      code: "COURIER_REJECTED",
      message: "Packeta: zip: Invalid ZIP code.",
      field: "Recipient.Zip",
    };
    expect(whole).toEqual([refused, refused]);
    fake.setMode("refuse");
    expect(await packeta.createShipments([order(), order({ referenceNumber: "ORDER-2" })], settings, ctx())).toEqual([
      refused,
      refused,
    ]);
    expect(fake.requests.filter((r) => r.operation === "cancelPacket")).toEqual([]);
  });

  it("answers COURIER_AUTH_FAILED for every order when Packeta refuses the password (never echoing it)", async () => {
    const wrong = { ...settings, apiPassword: "f".repeat(32) };
    const outcomes = await packeta.createShipments(
      [order(), order({ referenceNumber: "ORDER-2" }), order({ referenceNumber: "ORDER-3" })],
      wrong,
      ctx(),
    );
    expect(outcomes.map((o) => !o.ok && o.code)).toEqual(Array(3).fill("COURIER_AUTH_FAILED"));
    expect(JSON.stringify(outcomes)).not.toContain("f".repeat(32));
  });

  it("maps 5xx to COURIER_UNAVAILABLE and no answer to COURIER_TIMEOUT within the timeout, for every order", async () => {
    const two = [order(), order({ referenceNumber: "ORDER-2", parcels: [parcel(1), parcel(2)] })];
    fake.setMode("5xx");
    expect((await packeta.createShipments(two, settings, ctx())).map((o) => !o.ok && o.code)).toEqual([
      "COURIER_UNAVAILABLE",
      "COURIER_UNAVAILABLE",
    ]);
    fake.setMode("hang");
    const started = Date.now();
    expect((await packeta.createShipments(two, settings, ctx(300))).map((o) => !o.ok && o.code)).toEqual([
      "COURIER_TIMEOUT",
      "COURIER_TIMEOUT",
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("keeps at most 8 calls in flight per profile, across concurrent creates", async () => {
    fake.setDelay(50);
    fake.state.maxInFlight = 0;
    const creates = [
      // One create of 1000 packets (10 calls) beside 20 creates of one order each.
      packeta.createShipments(
        Array.from({ length: 500 }, (_, i) => order({ referenceNumber: `BIG-${i}`, parcels: [parcel(1), parcel(2)] })),
        settings,
        ctx(10_000),
      ),
      ...Array.from({ length: 20 }, (_, i) =>
        packeta.createShipments([order({ referenceNumber: `ONE-${i}` })], settings, ctx(10_000)),
      ),
    ];
    const outcomes = (await Promise.all(creates)).flat();
    expect(outcomes).toHaveLength(520);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    // Ten createPackets of 100 packets; each one-packet create is a createPacket.
    expect(createCalls()).toHaveLength(10);
    expect(fake.requests.filter((r) => r.operation === "createPacket")).toHaveLength(20);
    expect(fake.state.maxInFlight).toBeLessThanOrEqual(8);
    expect(fake.state.maxInFlight).toBeGreaterThan(1);
  });

  it("cancels every packet, and says when Packeta no longer allows it", async () => {
    const [created] = await packeta.createShipments([order({ parcels: [parcel(1), parcel(2)] })], settings, ctx());
    const ref = refOf(created);
    await packeta.cancelShipment(ref, settings, ctx());
    expect(fake.requests.filter((r) => r.operation === "cancelPacket").map((r) => String(r.body.packetId))).toEqual(
      packetIdsOf(created),
    );
    // A live packet (a cancelled one is done: see answers.test.ts).
    const live = refOf((await packeta.createShipments([order()], settings, ctx()))[0]);
    fake.setMode("cancel-not-allowed");
    await expect(packeta.cancelShipment(live, settings, ctx())).rejects.toMatchObject({
      code: "COURIER_CANNOT_CANCEL",
    });
  });

  it("fetches labels in the three formats, and tracks with the contract's status table and Packeta's text", async () => {
    const [created] = await packeta.createShipments([order()], settings, ctx());
    const ref = refOf(created);
    const a6 = await packeta.fetchLabel!(ref, "pdf-a6", settings, ctx());
    expect(a6.contentType).toBe("application/pdf");
    expect((await PDFDocument.load(a6.body)).getPageCount()).toBe(1);
    expect(fake.requests.at(-1)).toMatchObject({ operation: "packetLabelPdf", body: { format: "A6 on A6" } });
    const a4 = await packeta.fetchLabel!(ref, "pdf-a4", settings, ctx());
    expect(Math.round((await PDFDocument.load(a4.body)).getPage(0).getWidth())).toBe(595);
    expect(fake.requests.at(-1)).toMatchObject({ operation: "packetLabelPdf", body: { format: "A6 on A4" } });
    expect(Buffer.from((await packeta.fetchLabel!(ref, "zpl", settings, ctx())).body).toString()).toMatch(
      /^\^XA.*203 dpi/,
    );
    const [packetId] = packetIdsOf(created);
    const [fresh] = await packeta.track([ref], settings, ctx());
    expect(fresh!.events).toMatchObject([{ status: "CREATED", description: "Packet data received." }]);
    const at = new Date("2026-11-24T10:15:00Z");
    for (const [code, status, description] of [
      [2, "HANDED_OVER", "Packet arrived at the depot."],
      [4, "IN_TRANSIT", "Packet departed from the depot."],
      [5, "OUT_FOR_DELIVERY", "Packet is ready for pickup at the pickup point."],
      [16, "OUT_FOR_DELIVERY", "Delivery attempt; the courier will try again."],
      [7, "DELIVERED", "Packet was delivered."],
      [10, "RETURNED", "Packet was returned to the sender."],
      [11, "CANCELLED", "Packet was cancelled."],
    ] as const) {
      fake.setStatus(packetId!, code, at);
      const [result] = await packeta.track([ref], settings, ctx());
      expect(result!.events).toEqual([{ time: at, status, description, location: null }]);
    }
  });

  it("checks credentials with packetStatus of no packet when the API lacks the sender call", async () => {
    fake.setUnknownOperations(["senderGetReturnRouting"]);
    try {
      expect(await packeta.checkCredentials(settings, ctx())).toEqual({ ok: true });
      expect(fake.requests.at(-1)).toMatchObject({ operation: "packetStatus" });
      const wrong = await packeta.checkCredentials({ ...settings, apiPassword: "e".repeat(32) }, ctx());
      expect(wrong).toMatchObject({ ok: false, code: "COURIER_AUTH_FAILED" });
    } finally {
      fake.setUnknownOperations([]);
    }
  });

  it("checks credentials with the cheapest authenticated call", async () => {
    expect(await packeta.checkCredentials(settings, ctx())).toEqual({ ok: true });
    const wrong = await packeta.checkCredentials({ ...settings, apiPassword: "e".repeat(32) }, ctx());
    expect(wrong).toMatchObject({ ok: false, code: "COURIER_AUTH_FAILED" });
    expect(fake.requests.at(-1)).toMatchObject({ operation: "senderGetReturnRouting" });
  });
});
