import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { PDFDocument } from "pdf-lib";
import { drawnTexts } from "../fake-label";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallContext, CreateOutcome, ShipmentRef, ShipmentRequest } from "../adapter";
import { pplCourier as ppl } from "./adapter";
import { clearPplTokens, pplBaseUrl } from "./client";
import { isPplProblem, openApiErrorsOf } from "./fake-openapi";
import { productRuleError, startFakePpl, type FakePpl } from "./fake-server";
import {
  createBatchBody,
  platformField,
  pplShipmentOf,
  pplTime,
  trackingEventsOf,
  validateForPpl,
  type PplShipmentInfo,
} from "./mapping";
import type { PplSettings } from "./settings";

const CLIENT_ID = "test-client";
const SECRET = "test-secret-0123456789";
const settings: PplSettings = { clientId: CLIENT_ID, clientSecret: SECRET };
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

const order = (overrides: Partial<ShipmentRequest> = {}): ShipmentRequest => ({
  referenceNumber: "ORDER-1001",
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
  parcels: [{ weight: 1.2, length: null, width: null, height: null, reference: null }],
  codPrice: 499,
  codCurrency: "CZK",
  variableSymbol: "1001",
  insurancePrice: null,
  ...overrides,
});
const parcel = (weight: number) => ({ weight, length: null, width: null, height: null, reference: null });

const ctx = (timeoutMs = 5000): CallContext => ({
  signal: AbortSignal.timeout(timeoutMs),
  timeoutMs,
  now: () => new Date(),
  allocateNumbers: () => Promise.reject(new Error("PPL numbers its own shipments")),
});

const refOf = (outcome: CreateOutcome | undefined): ShipmentRef => {
  if (!outcome?.ok) throw new Error(`not created: ${JSON.stringify(outcome)}`);
  return {
    referenceNumber: outcome.referenceNumber,
    shippingNumbers: outcome.shippingNumbers,
    courierData: outcome.courierData,
    createdAt: new Date(),
  };
};

/** Every error message an adapter call produced (thrown or answered), to check that no secret is in any. */
const messages: string[] = [];
async function settle<T>(promise: Promise<T>): Promise<T> {
  try {
    const value = await promise;
    messages.push(JSON.stringify(value));
    return value;
  } catch (error) {
    messages.push(String((error as Error).message), JSON.stringify(error));
    throw error;
  }
}

let fake: FakePpl;
beforeAll(async () => {
  fake = await startFakePpl({ clientId: CLIENT_ID, clientSecret: SECRET });
  process.env.COURIER_PPL_URL = fake.url;
});
afterAll(async () => {
  await fake.close();
  // The secret and every token the fake issued appear in no message an adapter call produced.
  const all = messages.join("\n");
  expect(all).not.toContain(SECRET);
  expect(all).not.toMatch(/fake-ppl-token-/);
});
beforeEach(() => {
  fake.setMode("ok");
  fake.setDelay(0);
  fake.setPendingPolls(0);
  fake.setNumbering("consecutive");
  fake.requests.length = 0;
  fake.state.maxInFlight = 0;
});

const apiCalls = () => fake.requests.filter((r) => r.path !== "/login/getAccessToken");
const tokenCalls = () => fake.requests.filter((r) => r.path === "/login/getAccessToken");
const batchPosts = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/shipment/batch");
const lastShipmentSent = () => (batchPosts().at(-1)!.body as { shipments: Record<string, unknown>[] }).shipments[0]!;

describe("the PPL mapping", () => {
  it("builds the batch body exactly as the request fixture (Karrio-style: one request fixture per operation)", () => {
    expect(createBatchBody([order()], settings)).toEqual(JSON.parse(fixture("create-batch.request.json")));
  });

  it("picks the product per service, and the COD product with CodPrice", () => {
    const product = (o: ShipmentRequest) => pplShipmentOf(o, settings).productType;
    const noCod = { codPrice: null, codCurrency: null, variableSymbol: null };
    expect(product(order({ ...noCod }))).toBe("PRIV");
    expect(product(order({ service: "BUSINESS", ...noCod }))).toBe("BUSS");
    expect(product(order({ service: "PARCELSHOP", pickupPoint: "KM12345", ...noCod }))).toBe("SMAR");
    expect(product(order({ service: "INTERNATIONAL", ...noCod }))).toBe("CONN");
    expect(product(order())).toBe("PRID");
    expect(product(order({ service: "BUSINESS" }))).toBe("BUSD");
    expect(product(order({ service: "PARCELSHOP", pickupPoint: "KM12345" }))).toBe("SMAD");
    expect(product(order({ service: "INTERNATIONAL", codCurrency: "EUR" }))).toBe("COND");
  });

  it("maps company, parcel shop, insurance, note and a multi-parcel set", () => {
    const shipment = pplShipmentOf(
      order({
        service: "PARCELSHOP",
        pickupPoint: "KM12345",
        note: "Call first",
        insurancePrice: 60000,
        recipient: { ...order().recipient, company: "Acme s.r.o." },
        parcels: [parcel(1.2), parcel(3), parcel(0.5)],
      }),
      settings,
    );
    expect(shipment).toMatchObject({
      note: "Call first",
      recipient: { name: "Acme s.r.o.", contact: "Jana Nováková", zipCode: "11000" },
      specificDelivery: { parcelShopCode: "KM12345" },
      insurance: { insurancePrice: 60000, insuranceCurrency: "CZK" },
      shipmentSet: {
        numberOfShipments: 3,
        shipmentSetItems: [
          { weighedShipmentInfo: { weight: 1.2 } },
          { weighedShipmentInfo: { weight: 3 } },
          { weighedShipmentInfo: { weight: 0.5 } },
        ],
      },
    });
    expect(pplShipmentOf(order({ codPrice: null, codCurrency: null }), settings).cashOnDelivery).toBeUndefined();
  });

  it("maps PPL's field paths to the platform's fields", () => {
    expect(platformField("shipments[0].recipient.zipCode")).toBe("Recipient.Zip");
    expect(platformField("Shipments[3].Recipient.Name")).toBe("Recipient.Name");
    expect(platformField("recipient.street")).toBe("Recipient.Street");
    expect(platformField("recipient.city")).toBe("Recipient.City");
    expect(platformField("recipient.phone")).toBe("Recipient.Phone");
    expect(platformField("recipient.email")).toBe("Recipient.Email");
    expect(platformField("shipments[1].referenceId")).toBe("ReferenceNumber");
    expect(platformField("cashOnDelivery.codPrice")).toBe("CodPrice");
    expect(platformField("cashOnDelivery.codVarSym")).toBe("VariableSymbol");
    expect(platformField("specificDelivery.parcelShopCode")).toBe("PickupPoint");
    expect(platformField("shipments[0].shipmentSet.shipmentSetItems[1].weighedShipmentInfo.weight")).toBe(
      "Parcels[1].Weight",
    );
    expect(platformField("shipments[0].senderMask.city")).toBe("shipments[0].senderMask.city");
  });

  it("states PPL's limits at validate time, each at its field", () => {
    const codes = (o: ShipmentRequest) => validateForPpl(o, settings).map((m) => `${m.code}@${m.field}`);
    const r = order().recipient;
    expect(codes(order())).toEqual([]);
    expect(codes(order({ referenceNumber: "R".repeat(129) }))).toEqual(["TOO_LONG@ReferenceNumber"]);
    expect(codes(order({ referenceNumber: "R".repeat(128) }))).toEqual([]);
    expect(codes(order({ recipient: { ...r, name: "N".repeat(51) } }))).toEqual(["TOO_LONG@Recipient.Name"]);
    expect(codes(order({ recipient: { ...r, name: "N".repeat(50) } }))).toEqual([]);
    expect(codes(order({ recipient: { ...r, company: "C".repeat(51) } }))).toEqual(["TOO_LONG@Recipient.Company"]);
    expect(codes(order({ recipient: { ...r, street: "S".repeat(61) } }))).toEqual(["TOO_LONG@Recipient.Street"]);
    expect(codes(order({ recipient: { ...r, street: "S".repeat(60) } }))).toEqual([]);
    expect(codes(order({ recipient: { ...r, city: "C".repeat(51) } }))).toEqual(["TOO_LONG@Recipient.City"]);
    expect(codes(order({ recipient: { ...r, zip: "1".repeat(11) } }))).toEqual(["TOO_LONG@Recipient.Zip"]);
    expect(codes(order({ recipient: { ...r, phone: "+".padEnd(31, "1") } }))).toEqual(["TOO_LONG@Recipient.Phone"]);
    expect(codes(order({ recipient: { ...r, phone: "+".padEnd(30, "1") } }))).toEqual([]);
    expect(codes(order({ recipient: { ...r, email: `${"e".repeat(39)}@example.com` } }))).toEqual([
      "TOO_LONG@Recipient.Email",
    ]);
    expect(codes(order({ recipient: { ...r, email: `${"e".repeat(38)}@example.com` } }))).toEqual([]);
    expect(codes(order({ variableSymbol: null }))).toEqual(["REQUIRED@VariableSymbol"]);
    expect(codes(order({ variableSymbol: "12345678901" }))).toEqual(["INVALID_FORMAT@VariableSymbol"]);
    expect(codes(order({ variableSymbol: null, codPrice: null, codCurrency: null }))).toEqual([]);
    expect(codes(order({ codPrice: 100_000 }))).toEqual([]);
    expect(codes(order({ codPrice: 100_000.01 }))).toEqual(["OUT_OF_RANGE@CodPrice"]);
    expect(codes(order({ codCurrency: "EUR" }))).toEqual(["COD_NOT_SUPPORTED@CodCurrency"]);
    const abroad = { service: "INTERNATIONAL", recipient: { ...r, country: "SK", zip: "811 01" } };
    expect(codes(order({ ...abroad, codCurrency: "EUR", codPrice: 3000 }))).toEqual([]);
    expect(codes(order({ ...abroad, codCurrency: "EUR", codPrice: 3000.01 }))).toEqual(["OUT_OF_RANGE@CodPrice"]);
    expect(codes(order({ ...abroad, codCurrency: "USD" }))).toEqual(["COD_NOT_SUPPORTED@CodCurrency"]);
    expect(codes(order({ service: "PARCELSHOP" }))).toEqual(["REQUIRED@PickupPoint"]);
    expect(codes(order({ service: "PARCELSHOP", pickupPoint: "KM12345" }))).toEqual([]);
    expect(codes(order({ recipient: { ...r, country: "SK" } }))).toEqual(["UNSUPPORTED_COUNTRY@Recipient.Country"]);
    expect(codes(order({ service: "INTERNATIONAL", codCurrency: "CZK" }))).toEqual([
      "UNSUPPORTED_COUNTRY@Recipient.Country",
    ]);
    expect(codes(order({ insurancePrice: 500_001 }))).toEqual(["OUT_OF_RANGE@InsurancePrice"]);
    expect(codes(order({ service: "HOME" }))).toEqual(["INVALID_FORMAT@Service"]);
  });

  it("validates its settings strictly; environment is optional (production)", () => {
    const schema = ppl.settings.schema;
    expect(schema.safeParse({ clientId: "a", clientSecret: "b" }).success).toBe(true);
    expect(schema.safeParse({ ...settings, environment: "test", timeoutMs: 1000 }).success).toBe(true);
    expect(schema.safeParse({ ...settings, environment: "staging" }).success).toBe(false);
    expect(schema.safeParse({ ...settings, extra: 1 }).success).toBe(false);
    expect(schema.safeParse({ ...settings, clientSecret: "" }).success).toBe(false);
    // PPL's `depot` says "Nepoužívat" (do not use): a profile has none, so it is an unknown key.
    expect(schema.safeParse({ ...settings, depot: "07" }).success).toBe(false);
    expect(schema.safeParse({ ...settings, timeoutMs: 999 }).success).toBe(false);
    expect(ppl.settings.secretFields).toEqual(["clientSecret"]);
  });

  it("reads the URL at call time, the test URL for test profiles", () => {
    const saved = { url: process.env.COURIER_PPL_URL, test: process.env.COURIER_PPL_TEST_URL };
    try {
      delete process.env.COURIER_PPL_URL;
      delete process.env.COURIER_PPL_TEST_URL;
      expect(pplBaseUrl({})).toBe("https://api.dhl.com/ecs/ppl/myapi2");
      expect(pplBaseUrl({ environment: "production" })).toBe("https://api.dhl.com/ecs/ppl/myapi2");
      expect(pplBaseUrl({ environment: "test" })).toBe("https://api-dev.dhl.com/ecs/ppl/myapi2");
      process.env.COURIER_PPL_TEST_URL = "http://127.0.0.1:1/x/";
      expect(pplBaseUrl({ environment: "test" })).toBe("http://127.0.0.1:1/x");
    } finally {
      process.env.COURIER_PPL_URL = saved.url;
      if (saved.test === undefined) delete process.env.COURIER_PPL_TEST_URL;
      else process.env.COURIER_PPL_TEST_URL = saved.test;
    }
  });

  it("maps the tracking fixture: oldest first, first InTransport HANDED_OVER, unknown phases skipped", () => {
    const [shipment] = JSON.parse(fixture("tracking.response.json")) as PplShipmentInfo[];
    const events = trackingEventsOf(shipment!.trackAndTrace!.events!);
    expect(events.map((e) => e.status)).toEqual([
      "CREATED",
      "HANDED_OVER",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
    expect(events[1]).toEqual({
      time: new Date("2026-11-24T15:40:00Z"),
      status: "HANDED_OVER",
      description: "Shipment picked up from the sender.",
      location: null,
    });
    // A time without an offset is Prague's: 08:30 in November is 07:30 UTC.
    expect(events[3]!.time).toEqual(new Date("2026-11-25T07:30:00Z"));
    expect(pplTime("2026-07-01T12:00:00")).toEqual(new Date("2026-07-01T10:00:00Z"));
  });
});

describe("the PPL mapping against PPL's OpenAPI document and product rules (issue 28)", () => {
  const codes = (o: ShipmentRequest) => validateForPpl(o, settings).map((m) => `${m.code}@${m.field}`);
  const abroad = (country: string, overrides: Partial<ShipmentRequest> = {}) =>
    order({ service: "INTERNATIONAL", recipient: { ...order().recipient, country, zip: "81101" }, ...overrides });
  /** A POST with a fresh token, as any PPL client sends it. */
  async function postToFake(route: string, body: unknown, method = "POST") {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: CLIENT_ID,
      client_secret: SECRET,
      scope: "myapi2",
    });
    const token = (await (await fetch(`${fake.url}/login/getAccessToken`, { method: "POST", body: form })).json()) as {
      access_token: string;
    };
    return fetch(`${fake.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  it("the fake refuses a body PPL's OpenAPI document refuses, with PPL's problem naming each field", async () => {
    type Loose = Record<string, Record<string, unknown>>;
    const body = JSON.parse(fixture("create-batch.request.json")) as { shipments: Loose[] };
    const shipment = body.shipments[0]!;
    shipment.recipient!.name = "N".repeat(51);
    delete shipment.recipient!.zipCode;
    shipment.cashOnDelivery!.codVarSym = "VS-1";
    shipment.insurance = { insurancePrice: 60_000 };
    (shipment as Record<string, unknown>).colour = "red";
    const answer = await postToFake("/shipment/batch", body);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await answer.json()) as { errors: Record<string, string[]> };
    expect(isPplProblem(problem)).toBe(true);
    expect(Object.keys(problem.errors).sort()).toEqual([
      "shipments[0].cashOnDelivery.codVarSym",
      "shipments[0].colour",
      "shipments[0].insurance.insuranceCurrency",
      "shipments[0].recipient.name",
      "shipments[0].recipient.zipCode",
    ]);
    expect(problem.errors["shipments[0].recipient.name"]).toEqual([
      "The field name must be a string or array type with a maximum length of '50'.",
    ]);
    expect(batchPosts()).toHaveLength(1);
    // The label settings of PUT /shipment/batch/{id} are checked the same way.
    const [created] = await settle(ppl.createShipments([order()], settings, ctx()));
    const batchId = String(refOf(created).courierData.batchId);
    const put = await postToFake(`/shipment/batch/${batchId}`, { labelSettings: { format: "Gif", dpi: 100 } }, "PUT");
    expect(put.status).toBe(400);
    expect(Object.keys(((await put.json()) as { errors: object }).errors).sort()).toEqual([
      "labelSettings.dpi",
      "labelSettings.format",
    ]);
  });

  it("every order validate accepts passes PPL's OpenAPI document and its product rules", () => {
    const orders = [
      order(),
      order({ recipient: { ...order().recipient, company: "C".repeat(50), name: "N".repeat(50) } }),
      order({ service: "PARCELSHOP", pickupPoint: "KM12345", insurancePrice: 20_000.01, note: "n".repeat(300) }),
      order({ service: "BUSINESS", insurancePrice: 500_000, parcels: [parcel(1), parcel(31.5)] }),
      abroad("SK", { codCurrency: "EUR", codPrice: 3000, insurancePrice: 100_000 }),
      abroad("SK", { codCurrency: "CZK", codPrice: 80_000 }),
      abroad("PL", { codCurrency: "PLN", codPrice: 6500 }),
      abroad("DE", { codPrice: null, codCurrency: null, variableSymbol: null, insurancePrice: 100_000.01 }),
    ];
    for (const o of orders) {
      expect(codes(o)).toEqual([]);
      expect(openApiErrorsOf("createShipmentBatch", createBatchBody([o], settings))).toBeNull();
      expect(productRuleError(pplShipmentOf(o, settings) as unknown as Record<string, unknown>)).toBeNull();
    }
  });

  it("any order validate accepts passes PPL's OpenAPI document and product rules (property)", () => {
    // Strings of every length up to `max`, so both sides of PPL's limits are tried.
    const text = (max: number, chars = "AbŽž09 .,&-") =>
      fc
        .integer({ min: 1, max })
        .chain((n) => fc.string({ unit: fc.constantFrom(...chars), minLength: n, maxLength: n }))
        .filter((s) => s.trim() !== "")
        .map((s) => s.trim());
    const arbitraryOrder = fc.record({
      referenceNumber: text(130, "R1-"),
      service: fc.constantFrom("PRIVATE", "BUSINESS", "PARCELSHOP", "INTERNATIONAL"),
      country: fc.constantFrom("CZ", "SK", "PL", "HU", "RO", "DE", "BG", "AT"),
      name: text(52),
      company: fc.option(text(52)),
      street: text(62),
      city: text(52),
      zip: text(11, "0123456789 "),
      note: fc.option(text(300)),
      parcels: fc.integer({ min: 1, max: 3 }),
      cod: fc.option(
        fc.tuple(
          fc.constantFrom("CZK", "EUR", "PLN", "HUF", "RON", "BGN"),
          fc.integer({ min: 1, max: 12_000_000 }).map((c) => c / 100),
        ),
      ),
      insurancePrice: fc.option(fc.integer({ min: 1, max: 60_000_000 }).map((c) => c / 100)),
    });
    fc.assert(
      fc.property(arbitraryOrder, (g) => {
        const o = order({
          referenceNumber: g.referenceNumber,
          service: g.service,
          pickupPoint: g.service === "PARCELSHOP" ? "KM12345" : null,
          note: g.note,
          recipient: {
            ...order().recipient,
            name: g.name,
            company: g.company,
            street: g.street,
            city: g.city,
            zip: g.zip,
            country: g.country,
          },
          parcels: Array.from({ length: g.parcels }, (_, i) => parcel(i + 1)),
          codPrice: g.cod?.[1] ?? null,
          codCurrency: g.cod?.[0] ?? null,
          variableSymbol: g.cod ? "1001" : null,
          insurancePrice: g.insurancePrice,
        });
        if (validateForPpl(o, settings).some((m) => m.severity === "ERROR")) return;
        expect(openApiErrorsOf("createShipmentBatch", createBatchBody([o], settings))).toBeNull();
        expect(productRuleError(pplShipmentOf(o, settings) as unknown as Record<string, unknown>)).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it("carries the reference as the CUST external number only when PPL's externalNumber takes it (≤ 100)", async () => {
    const long = order({ referenceNumber: "R".repeat(128) });
    expect(codes(long)).toEqual([]);
    expect(openApiErrorsOf("createShipmentBatch", createBatchBody([long], settings))).toBeNull();
    expect(pplShipmentOf(long, settings).externalNumbers).toBeUndefined();
    expect(pplShipmentOf(order({ referenceNumber: "R".repeat(100) }), settings).externalNumbers).toEqual([
      { code: "CUST", externalNumber: "R".repeat(100) },
    ]);
    expect(await settle(ppl.createShipments([long], settings, ctx()))).toMatchObject([{ ok: true }]);
  });

  it("puts a company in recipient.name with the person in contact, and the person in name without one", async () => {
    const company = order({ recipient: { ...order().recipient, company: "Acme s.r.o." } });
    const [outcome] = await settle(ppl.createShipments([company], settings, ctx()));
    expect(outcome).toMatchObject({ ok: true });
    expect(lastShipmentSent().recipient).toMatchObject({ name: "Acme s.r.o.", contact: "Jana Nováková" });
    expect(lastShipmentSent().recipient).not.toHaveProperty("name2");
    const person = pplShipmentOf(order(), settings).recipient;
    expect(person.name).toBe("Jana Nováková");
    expect(person).not.toHaveProperty("contact");
    expect(platformField("shipments[0].recipient.contact")).toBe("Recipient.Name");
  });

  it("sends insurance in CZK only above the cover the product includes; the fake refuses it otherwise", async () => {
    const insured = (service: string, insurancePrice: number, extra: Partial<ShipmentRequest> = {}) =>
      pplShipmentOf(order({ service, pickupPoint: "KM1", insurancePrice, ...extra }), settings).insurance;
    expect(insured("PRIVATE", 50_000)).toBeUndefined();
    expect(insured("PRIVATE", 50_000.01)).toEqual({ insurancePrice: 50_000.01, insuranceCurrency: "CZK" });
    expect(insured("BUSINESS", 50_000)).toBeUndefined();
    expect(insured("PARCELSHOP", 20_000)).toBeUndefined();
    expect(insured("PARCELSHOP", 20_001)).toEqual({ insurancePrice: 20_001, insuranceCurrency: "CZK" });
    expect(insured("INTERNATIONAL", 100_000, { codCurrency: "EUR" })).toBeUndefined();
    // In CZK whatever the COD currency: PPL insures in CZK only.
    expect(insured("INTERNATIONAL", 150_000, { codCurrency: "EUR" })).toEqual({
      insurancePrice: 150_000,
      insuranceCurrency: "CZK",
    });
    const outcomes = await settle(
      ppl.createShipments(
        [
          order({ referenceNumber: "INS-1", insurancePrice: 1_000 }),
          abroad("SK", { referenceNumber: "INS-2", codCurrency: "EUR", insurancePrice: 150_000 }),
        ],
        settings,
        ctx(),
      ),
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    const sent = (batchPosts()[0]!.body as { shipments: Record<string, unknown>[] }).shipments;
    expect(sent.map((s) => s.insurance)).toEqual([undefined, { insurancePrice: 150_000, insuranceCurrency: "CZK" }]);
    // What PPL refuses: below the included cover, or in another currency.
    expect(
      productRuleError({ productType: "PRIV", insurance: { insurancePrice: 1_000, insuranceCurrency: "CZK" } }),
    ).toMatchObject({ errorCode: "InsurancePrice" });
    expect(
      productRuleError({ productType: "CONN", insurance: { insurancePrice: 150_000, insuranceCurrency: "EUR" } }),
    ).toMatchObject({ errorCode: "InsuranceCurrency" });
    expect(codes(order({ insurancePrice: 500_000.01 }))).toEqual(["OUT_OF_RANGE@InsurancePrice"]);
  });

  it("refuses INTERNATIONAL with several parcels at validate, as PPL refuses Parcel Connect sets", async () => {
    const two = abroad("DE", {
      codPrice: null,
      codCurrency: null,
      variableSymbol: null,
      parcels: [parcel(1), parcel(2)],
    });
    expect(codes(two)).toEqual(["OUT_OF_RANGE@Parcels"]);
    const [outcome] = await settle(ppl.createShipments([two], settings, ctx()));
    expect(outcome).toMatchObject({ ok: false, code: "COURIER_REJECTED", message: expect.stringContaining("CONN") });
  });

  it("takes cash on delivery only in the currency PPL takes for the recipient's country", async () => {
    expect(codes(abroad("SK", { codCurrency: "EUR" }))).toEqual([]);
    expect(codes(abroad("SK", { codCurrency: "CZK" }))).toEqual([]);
    expect(codes(abroad("PL", { codCurrency: "PLN" }))).toEqual([]);
    expect(codes(abroad("HU", { codCurrency: "HUF" }))).toEqual([]);
    expect(codes(abroad("RO", { codCurrency: "RON" }))).toEqual([]);
    expect(codes(abroad("PL", { codCurrency: "EUR" }))).toEqual(["COD_NOT_SUPPORTED@CodCurrency"]);
    expect(codes(abroad("HU", { codCurrency: "EUR" }))).toEqual(["COD_NOT_SUPPORTED@CodCurrency"]);
    expect(codes(abroad("DE", { codCurrency: "EUR" }))).toEqual(["COD_NOT_SUPPORTED@CodPrice"]);
    expect(codes(abroad("BG", { codCurrency: "BGN" }))).toEqual(["COD_NOT_SUPPORTED@CodPrice"]);
    expect(ppl.capabilities.codCurrencies).toEqual(["CZK", "EUR", "PLN", "HUF", "RON"]);
    const [outcome] = await settle(ppl.createShipments([abroad("DE", { codCurrency: "EUR" })], settings, ctx()));
    expect(outcome).toMatchObject({ ok: false, code: "COURIER_REJECTED", message: expect.stringContaining("DE") });
  });
});

describe("the PPL adapter against the fake", () => {
  it("sends the token request as the fixture, and the batch as mapped, with a bearer token", async () => {
    clearPplTokens();
    const [outcome] = await settle(ppl.createShipments([order()], settings, ctx()));
    expect(tokenCalls()).toHaveLength(1);
    expect(tokenCalls()[0]!.raw).toBe(fixture("get-access-token.request.txt"));
    expect(tokenCalls()[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(batchPosts()[0]!.body).toEqual(JSON.parse(fixture("create-batch.request.json")));
    expect(batchPosts()[0]!.headers.authorization).toMatch(/^Bearer fake-ppl-token-/);
    expect(outcome).toMatchObject({ ok: true, referenceNumber: "ORDER-1001" });
    const ref = refOf(outcome);
    expect(ref.shippingNumbers).toHaveLength(1);
    expect(ref.shippingNumbers[0]).toMatch(/^4\d{10}$/);
    expect(outcome).toMatchObject({
      trackingUrl: `https://www.ppl.cz/vyhledat-zasilku?shipmentId=${ref.shippingNumbers[0]}`,
      courierData: { batchId: expect.any(String), labelUrls: [expect.stringContaining(`${fake.url}/data/`)] },
    });
  });

  it("registers many orders in one batch, one outcome per request in order; a multi-parcel order is one set", async () => {
    const requests = [
      order({ referenceNumber: "A-1" }),
      order({ referenceNumber: "A-2", parcels: [parcel(1), parcel(2), parcel(3)] }),
      order({ referenceNumber: "A-3", service: "PARCELSHOP", pickupPoint: "KM12345" }),
    ];
    const outcomes = await settle(ppl.createShipments(requests, settings, ctx()));
    expect(batchPosts()).toHaveLength(1);
    expect(outcomes.map((o) => o.ok && o.referenceNumber)).toEqual(["A-1", "A-2", "A-3"]);
    const set = refOf(outcomes[1]);
    expect(set.shippingNumbers).toHaveLength(3);
    expect(set.shippingNumbers.map(Number)).toEqual([0, 1, 2].map((i) => Number(set.shippingNumbers[0]) + i));
    expect((set.courierData.labelUrls as string[]).length).toBe(3);
    const sent = (batchPosts()[0]!.body as { shipments: Record<string, unknown>[] }).shipments;
    expect(sent[1]!.shipmentSet).toEqual({
      numberOfShipments: 3,
      shipmentSetItems: [1, 2, 3].map((weight) => ({ weighedShipmentInfo: { weight } })),
    });
    expect(sent[2]).toMatchObject({ productType: "SMAD", specificDelivery: { parcelShopCode: "KM12345" } });
    const numbers = outcomes.flatMap((o) => (o.ok ? o.shippingNumbers : []));
    expect(new Set(numbers).size).toBe(5);
  });

  it("sends each service's product, the variable symbol and the parcel shop to PPL", async () => {
    const noCod = { codPrice: null, codCurrency: null, variableSymbol: null };
    for (const [overrides, product] of [
      [{ ...noCod }, "PRIV"],
      [{ service: "BUSINESS", ...noCod }, "BUSS"],
      [{ service: "PARCELSHOP", pickupPoint: "KM1", ...noCod }, "SMAR"],
      [{ service: "INTERNATIONAL", ...noCod }, "CONN"],
      [{}, "PRID"],
      [{ service: "BUSINESS" }, "BUSD"],
      [{ service: "PARCELSHOP", pickupPoint: "KM1" }, "SMAD"],
      [{ service: "INTERNATIONAL", codCurrency: "EUR" }, "COND"],
    ] as const) {
      await settle(ppl.createShipments([order(overrides)], settings, ctx()));
      expect(lastShipmentSent().productType).toBe(product);
    }
    await settle(ppl.createShipments([order({ variableSymbol: "424242" })], settings, ctx()));
    expect(lastShipmentSent().cashOnDelivery).toEqual({ codPrice: 499, codCurrency: "CZK", codVarSym: "424242" });
  });

  it("polls the batch until it is complete", async () => {
    fake.setPendingPolls(3);
    const [outcome] = await settle(ppl.createShipments([order()], settings, ctx()));
    expect(outcome!.ok).toBe(true);
    expect(apiCalls().filter((r) => r.method === "GET" && r.path.startsWith("/shipment/batch/"))).toHaveLength(4);
  });

  it("fetches the token once for many calls, and once more after the tokens expire", async () => {
    clearPplTokens();
    for (let i = 0; i < 3; i++) await settle(ppl.createShipments([order()], settings, ctx()));
    expect(tokenCalls()).toHaveLength(1);
    fake.expireTokens();
    const [outcome] = await settle(ppl.createShipments([order()], settings, ctx()));
    expect(outcome!.ok).toBe(true);
    expect(tokenCalls()).toHaveLength(2);
    const posts = batchPosts();
    expect(posts).toHaveLength(5); // the refused one and its one retry
    expect(posts[3]!.headers.authorization).not.toBe(posts[4]!.headers.authorization);
  });

  it("refuses wrong credentials with COURIER_AUTH_FAILED, and never says the secret", async () => {
    const wrong = { ...settings, clientSecret: "wrong-secret-987654321" };
    const [outcome] = await settle(ppl.createShipments([order()], wrong, ctx()));
    expect(outcome).toEqual({
      ok: false,
      code: "COURIER_AUTH_FAILED",
      message: "PPL refused the client credentials.",
      field: null,
    });
    expect(JSON.stringify(outcome)).not.toContain("wrong-secret");
    fake.setMode("auth");
    clearPplTokens();
    await expect(settle(ppl.track([refOf(someShipment())], settings, ctx()))).rejects.toMatchObject({
      code: "COURIER_AUTH_FAILED",
    });
  });

  it("maps an item in Error to COURIER_REJECTED with PPL's code and message", async () => {
    fake.setMode("refuse");
    const outcomes = await settle(
      ppl.createShipments([order(), order({ referenceNumber: "ORDER-1002" })], settings, ctx()),
    );
    expect(outcomes).toEqual(
      [0, 1].map(() => ({
        ok: false,
        code: "COURIER_REJECTED",
        message: "PPL: InvalidZipCode Recipient zip code 11000 does not exist in country CZ.",
        field: null,
      })),
    );
  });

  it("maps a 400 problem to COURIER_REJECTED with the field; the other orders of the batch are refused too", async () => {
    fake.setMode("bad-request");
    const outcomes = await settle(
      ppl.createShipments([order(), order({ referenceNumber: "ORDER-1002" })], settings, ctx()),
    );
    expect(outcomes[0]).toEqual({
      ok: false,
      code: "COURIER_REJECTED",
      message: "PPL: The field zipCode must be a valid zip code of the recipient's country.",
      field: "Recipient.Zip",
    });
    expect(outcomes[1]).toMatchObject({ ok: false, code: "COURIER_REJECTED", field: null });
    expect(outcomes[1]!.ok === false && outcomes[1]!.message).toContain("ORDER-1001");
  });

  it("maps 5xx to COURIER_UNAVAILABLE and no answer to COURIER_TIMEOUT within the timeout", async () => {
    fake.setMode("5xx");
    expect((await settle(ppl.createShipments([order()], settings, ctx())))[0]).toMatchObject({
      ok: false,
      code: "COURIER_UNAVAILABLE",
    });
    fake.setMode("hang");
    const started = Date.now();
    const outcomes = await settle(ppl.createShipments([order(), order({ referenceNumber: "B" })], settings, ctx(300)));
    // The batch POST was sent and never answered: PPL may have registered it.
    expect(outcomes.map((o) => !o.ok && [o.code, o.outcomeUnknown])).toEqual([
      ["COURIER_TIMEOUT", true],
      ["COURIER_TIMEOUT", true],
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("answers an unknown outcome with the batch for orders still InProcess when the batch does not finish in time", async () => {
    fake.setPendingPolls(1000);
    const [outcome] = await settle(ppl.createShipments([order()], settings, ctx(400)));
    expect(outcome).toMatchObject({ ok: false, code: "COURIER_TIMEOUT", outcomeUnknown: true });
    const batchId = outcome!.ok ? null : outcome!.recoveryHint?.batchId;
    expect(typeof batchId).toBe("string");
    // Still in process when recovery asks: it cannot tell yet (asked again later).
    await expect(settle(ppl.findShipments(order(), settings, ctx(), { batchId }))).rejects.toMatchObject({
      code: "COURIER_TIMEOUT",
    });
    fake.setPendingPolls(0);
  });

  it("never answers an unknown outcome when PPL cannot be reached at all", async () => {
    const closed = await startFakePpl({ clientId: settings.clientId, clientSecret: settings.clientSecret });
    await closed.close();
    const saved = process.env.COURIER_PPL_URL;
    process.env.COURIER_PPL_URL = closed.url;
    try {
      const [outcome] = await settle(ppl.createShipments([order()], settings, ctx(2000)));
      expect(outcome).toMatchObject({ ok: false, code: "COURIER_UNAVAILABLE" });
      expect(outcome).not.toHaveProperty("outcomeUnknown");
    } finally {
      process.env.COURIER_PPL_URL = saved;
    }
  });

  it("sends one reference under two source pairs in two batches and matches each item by its batch", async () => {
    const before = fake.requests.filter((r) => r.method === "POST" && r.path === "/shipment/batch").length;
    const twin = order({ referenceNumber: `TWIN-${Date.now()}` });
    const outcomes = await settle(
      ppl.createShipments([twin, order({ referenceNumber: "OTHER-1" }), twin], settings, ctx()),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const [a, , b] = outcomes.map(refOf);
    expect(a!.shippingNumbers).not.toEqual(b!.shippingNumbers);
    const posts = fake.requests.filter((r) => r.method === "POST" && r.path === "/shipment/batch").slice(before);
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      const refs = ((post.body as { shipments: { referenceId: string }[] }).shipments ?? []).map((s) => s.referenceId);
      expect(new Set(refs).size).toBe(refs.length);
    }
  });

  it("keeps at most 8 calls in flight per profile", async () => {
    fake.setDelay(50);
    const many = Array.from({ length: 30 }, (_, i) => order({ referenceNumber: `BULK-${i}` }));
    const outcomes = await settle(Promise.all(many.map((o) => ppl.createShipments([o], settings, ctx(20_000)))));
    expect(outcomes.every(([o]) => o!.ok)).toBe(true);
    expect(fake.state.maxInFlight).toBeLessThanOrEqual(8);
    expect(fake.state.maxInFlight).toBeGreaterThan(1);
  });

  it("cancels every parcel, and says when PPL no longer allows it", async () => {
    const ref = refOf((await settle(ppl.createShipments([order()], settings, ctx())))[0]);
    await settle(ppl.cancelShipment(ref, settings, ctx()));
    expect(apiCalls().at(-1)).toMatchObject({ method: "POST", path: `/shipment/${ref.shippingNumbers[0]}/cancel` });
    expect(fake.shipment(ref.shippingNumbers[0]!)!.phase).toBe("Canceled");

    const set = refOf(
      (await settle(ppl.createShipments([order({ parcels: [parcel(1), parcel(2)] })], settings, ctx())))[0],
    );
    await settle(ppl.cancelShipment(set, settings, ctx()));
    expect(
      apiCalls()
        .filter((r) => r.path.endsWith("/cancel"))
        .map((r) => r.path),
    ).toEqual([
      `/shipment/${ref.shippingNumbers[0]}/cancel`,
      ...set.shippingNumbers.map((n) => `/shipment/${n}/cancel`),
    ]);

    const other = refOf((await settle(ppl.createShipments([order()], settings, ctx())))[0]);
    fake.setMode("cancel-not-allowed");
    await expect(settle(ppl.cancelShipment(other, settings, ctx()))).rejects.toMatchObject({
      code: "COURIER_CANNOT_CANCEL",
      message: expect.stringContaining("can no longer be cancelled"),
    });
  });

  it("fetches labels in each format: A6 from the parcels' label URLs, else (and A4, ZPL) from the batch", async () => {
    const outcomes = await settle(
      ppl.createShipments(
        [order({ referenceNumber: "L-1" }), order({ referenceNumber: "L-2", parcels: [parcel(1), parcel(2)] })],
        settings,
        ctx(),
      ),
    );
    const ref = refOf(outcomes[1]);
    const batchId = String(ref.courierData.batchId);
    fake.requests.length = 0;

    // PPL's default label: each parcel's labelUrl (a bearer GET on the API's origin), merged into one file.
    const fromUrls = await settle(ppl.fetchLabel!(ref, "pdf-a6", settings, ctx()));
    expect(fromUrls.contentType).toBe("application/pdf");
    expect((await PDFDocument.load(fromUrls.body)).getPageCount()).toBe(2);
    const urlCalls = apiCalls();
    expect(urlCalls).toHaveLength(2);
    for (const call of urlCalls) {
      expect(call.method).toBe("GET");
      expect(call.path).not.toContain("/shipment/batch");
      expect(call.headers.authorization).toMatch(/^Bearer /);
    }
    fake.requests.length = 0;

    // Without label URLs (a shipment adopted by recovery has none): the batch's label endpoint.
    const noUrls = { ...ref, courierData: { ...ref.courierData, labelUrls: [] } };
    const a6 = await settle(ppl.fetchLabel!(noUrls, "pdf-a6", settings, ctx()));
    expect(a6.contentType).toBe("application/pdf");
    expect(Buffer.from(a6.body).subarray(0, 5).toString()).toBe("%PDF-");
    expect((await PDFDocument.load(a6.body)).getPageCount()).toBe(2);
    const [put, , label] = apiCalls();
    expect(put).toMatchObject({
      method: "PUT",
      path: `/shipment/batch/${batchId}`,
      body: {
        labelSettings: {
          format: "Pdf",
          completeLabelSettings: { isCompleteLabelRequested: true, pageSize: "Default", position: 1 },
        },
      },
    });
    expect(label).toMatchObject({
      method: "GET",
      path: `/shipment/batch/${batchId}/label`,
      query: { PageSize: ["Default"], Position: ["1"], limit: ["2"], offset: ["1"], OrderBy: ["ShipmentNumber"] },
    });
    expect((await drawnTexts(a6.body)).flat()).toContain(ref.shippingNumbers[1]);

    fake.requests.length = 0;
    const a4 = await settle(ppl.fetchLabel!(ref, "pdf-a4", settings, ctx()));
    expect(a4.contentType).toBe("application/pdf");
    expect(apiCalls()[0]!.body).toMatchObject({
      labelSettings: { format: "Pdf", completeLabelSettings: { pageSize: "A4" } },
    });
    expect(apiCalls()[2]!.query.PageSize).toEqual(["A4"]);

    fake.requests.length = 0;
    const zpl = await settle(ppl.fetchLabel!(ref, "zpl", settings, ctx()));
    expect(zpl.contentType).toBe("text/plain; charset=utf-8");
    expect(apiCalls()[0]!.body).toMatchObject({ labelSettings: { format: "Zpl", dpi: 203 } });
    const text = Buffer.from(zpl.body).toString();
    expect(text.match(/\^XA/g)).toHaveLength(2);
    expect(text).toContain("203 dpi");
    for (const n of ref.shippingNumbers) expect(text).toContain(`^FD${n}^FS`);
  });

  it("merges the labels of a set whose numbers are not next to each other in the batch", async () => {
    fake.setNumbering("interleaved");
    const outcomes = await settle(
      ppl.createShipments(
        [
          order({ referenceNumber: "I-1", parcels: [parcel(1), parcel(2)] }),
          order({ referenceNumber: "I-2", parcels: [parcel(1), parcel(2)] }),
        ],
        settings,
        ctx(),
      ),
    );
    const ref = refOf(outcomes[0]);
    fake.requests.length = 0;
    const file = await settle(ppl.fetchLabel!(ref, "pdf-a4", settings, ctx()));
    const labelCalls = apiCalls().filter((r) => r.path.endsWith("/label"));
    expect(labelCalls.map((r) => [r.query.offset![0], r.query.limit![0]])).toEqual([
      ["0", "1"],
      ["2", "1"],
    ]);
    expect((await PDFDocument.load(file.body)).getPageCount()).toBeGreaterThan(0);
  });

  it("answers COURIER_UNAVAILABLE when a label cannot be had", async () => {
    const ref = refOf((await settle(ppl.createShipments([order()], settings, ctx())))[0]);
    fake.setMode("5xx");
    await expect(settle(ppl.fetchLabel!(ref, "pdf-a6", settings, ctx()))).rejects.toMatchObject({
      code: "COURIER_UNAVAILABLE",
    });
    fake.setMode("ok");
    await expect(
      settle(ppl.fetchLabel!({ ...ref, courierData: { batchId: null } }, "zpl", settings, ctx())),
    ).rejects.toMatchObject({ code: "COURIER_UNAVAILABLE" });
  });

  it("tracks with the contract's phase table, each shipment by its first number", async () => {
    const ref = refOf((await settle(ppl.createShipments([order()], settings, ctx())))[0]);
    const number = ref.shippingNumbers[0]!;
    const statuses = async () => (await settle(ppl.track([ref], settings, ctx())))[0]!.events.map((e) => e.status);
    expect(await statuses()).toEqual(["CREATED"]);
    expect(apiCalls().at(-1)).toMatchObject({
      method: "GET",
      path: "/shipment",
      query: { ShipmentNumbers: [number], Limit: ["50"], Offset: ["0"] },
    });
    const table: [string, string[]][] = [
      ["InTransport", ["CREATED", "HANDED_OVER", "IN_TRANSIT"]],
      ["Delivering", ["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY"]],
      ["PickupPoint", ["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY"]],
      ["Delivered", ["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED"]],
      ["Returning", ["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY", "RETURNED"]],
      ["BackToSender", ["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY", "RETURNED", "RETURNED"]],
      ["Canceled", ["CREATED", "CANCELLED"]],
      ["SomethingNew", ["CREATED"]],
    ];
    for (const [phase, expected] of table) {
      fake.setPhase(number, phase);
      expect(await statuses()).toEqual(expected);
    }
    fake.setPhase(number, "Delivered");
    const [result] = await settle(ppl.track([ref], settings, ctx()));
    expect(result!.nextCheckAt).toBeNull();
    expect(result!.events.at(-1)).toMatchObject({ status: "DELIVERED", description: "Shipment delivered." });
    const times = result!.events.map((e) => e.time.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("tracks 50 shipments in one call, one result per shipment in input order", async () => {
    const requests = Array.from({ length: 50 }, (_, i) => order({ referenceNumber: `T-${i}` }));
    const refs = (await settle(ppl.createShipments(requests, settings, ctx(10_000)))).map(refOf);
    fake.setPhase(refs[7]!.shippingNumbers[0]!, "Delivered");
    fake.requests.length = 0;
    const results = await settle(ppl.track(refs, settings, ctx()));
    expect(apiCalls()).toHaveLength(1);
    expect(apiCalls()[0]!.query.ShipmentNumbers).toHaveLength(50);
    expect(results).toHaveLength(50);
    expect(results[7]!.events.at(-1)!.status).toBe("DELIVERED");
    expect(results[8]!.events.map((e) => e.status)).toEqual(["CREATED"]);
    const none = await settle(ppl.track([{ ...refs[0]!, shippingNumbers: [] }], settings, ctx()));
    expect(none).toEqual([{ events: [], nextCheckAt: null }]);
  });

  it("checks credentials with the token cached for calls (PPL allows ~12 token requests a minute)", async () => {
    await settle(ppl.createShipments([order()], settings, ctx()));
    fake.requests.length = 0;
    expect(await settle(ppl.checkCredentials(settings, ctx()))).toEqual({ ok: true });
    expect(await settle(ppl.checkCredentials(settings, ctx()))).toEqual({ ok: true });
    expect(tokenCalls()).toHaveLength(0);
    const wrong = await settle(ppl.checkCredentials({ ...settings, clientSecret: "nope-nope-nope" }, ctx()));
    expect(wrong).toEqual({ ok: false, code: "COURIER_AUTH_FAILED", message: "PPL refused the client credentials." });
    expect(tokenCalls()).toHaveLength(1);
    clearPplTokens();
    fake.setMode("5xx");
    expect(await settle(ppl.checkCredentials(settings, ctx()))).toMatchObject({
      ok: false,
      code: "COURIER_UNAVAILABLE",
    });
  });

  it("finds a registered shipment by its reference for recovery, and none when PPL has none", async () => {
    const reference = `FIND-${Date.now()}`;
    const request = order({ referenceNumber: reference, parcels: [parcel(1), parcel(2)] });
    const created = refOf((await settle(ppl.createShipments([request], settings, ctx())))[0]);
    fake.requests.length = 0;
    const found = await settle(ppl.findShipments(request, settings, ctx(), null));
    expect(apiCalls()[0]).toMatchObject({
      method: "GET",
      path: "/shipment",
      query: { CustomerReferences: [reference], Limit: ["50"], Offset: ["0"] },
    });
    expect(found).toEqual([
      {
        referenceNumber: reference,
        shippingNumbers: created.shippingNumbers,
        trackingUrl: `https://www.ppl.cz/vyhledat-zasilku?shipmentId=${created.shippingNumbers[0]}`,
        courierData: { batchId: null, labelUrls: [] },
      },
    ]);
    // With the batch it was sent in: that batch's item, with its labels.
    const byBatch = await settle(ppl.findShipments(request, settings, ctx(), { batchId: created.courierData.batchId }));
    expect(byBatch.map((s) => s.shippingNumbers)).toEqual([created.shippingNumbers]);
    expect(await settle(ppl.findShipments(order({ referenceNumber: "NEVER-SENT" }), settings, ctx(), null))).toEqual(
      [],
    );
    await settle(ppl.cancelShipment(created, settings, ctx()));
    expect(await settle(ppl.findShipments(request, settings, ctx(), null))).toEqual([]);
  });

  it("takes the courier timeout from the profile, else COURIER_TIMEOUT_MS", () => {
    expect(ppl.timeoutMs({ ...settings, timeoutMs: 2500 })).toBe(2500);
    expect(ppl.timeoutMs(settings)).toBeGreaterThan(0);
    expect(ppl.limits).toEqual({
      maxInFlightPerProfile: 8,
      createBatchSize: 100,
      trackingBatchSize: 50,
      uniqueReferencePerCall: true,
    });
    expect(ppl.capabilities).toMatchObject({
      id: "ppl",
      name: "PPL",
      defaultService: "PRIVATE",
      maxParcelWeightKg: 31.5,
    });
    expect(ppl.capabilities.codCurrencies).toEqual(expect.arrayContaining(["CZK", "EUR"]));
    expect(ppl.capabilities.services.find((s) => s.code === "PARCELSHOP")!.requiresPickupPoint).toBe(true);
  });
});

/** A created-looking outcome (for calls expected to fail before they reach the shipment). */
function someShipment(): CreateOutcome {
  return { ok: true, referenceNumber: "X", shippingNumbers: ["40000000000"], trackingUrl: null, courierData: {} };
}
