import { describe, expect, it } from "vitest";
import { sandboxCourier } from "@/server/couriers/sandbox";
import { order } from "@/test/partner";
import { markDuplicatesInRequest, validateOrder } from "./validate-order";

const caps = sandboxCourier.capabilities;
const validate = (o: unknown, service: string | null = "STANDARD") => validateOrder(o, caps, { service });
const codes = (o: unknown) => validate(o).response.messages.map((m) => `${m.code}@${m.field}`);
const recipient = (r: Record<string, unknown>) => ({
  Name: "A",
  Street: "B 1",
  City: "C",
  Zip: "110 00",
  Country: "CZ",
  Email: "a@b.cz",
  ...r,
});

describe("validateOrder: the contract's field rules", () => {
  it("passes a complete order with status OK", () => {
    const result = validate(order());
    expect(result.response).toEqual({ status: "OK", referenceNumber: expect.any(String), messages: [] });
  });

  it("reads null in every optional field as absent, numbers included", () => {
    const withNulls = order({
      ExternalReference: null,
      ReferenceSource: null,
      SourceIdentifier: null,
      Service: null,
      Recipient: recipient({ Company: null, Phone: null }),
      Parcels: [{ Weight: 1, Length: null, Width: null, Height: null, Reference: null }],
      CodPrice: null,
      CodCurrency: null,
      VariableSymbol: null,
      InsurancePrice: null,
      Note: null,
      PickupPoint: null,
    });
    expect(codes(withNulls)).toEqual([]);
    const parsed = validate(withNulls).order!;
    expect(parsed.CodPrice).toBeUndefined();
    expect(parsed.InsurancePrice).toBeUndefined();
    expect(parsed.Parcels[0]).toEqual({ Weight: 1 });
    expect(codes(order({ CodPrice: null, CodCurrency: "CZK" }))).toEqual([]);
    // Null is not a value of a required field.
    expect(codes(order({ Parcels: [{ Weight: null }] }))).toContain("REQUIRED@Parcels[0].Weight");
  });

  it("ReferenceNumber: required, 1..64 after trimming", () => {
    expect(codes(order({ ReferenceNumber: undefined }))).toContain("REQUIRED@ReferenceNumber");
    expect(codes(order({ ReferenceNumber: "   " }))).toContain("REQUIRED@ReferenceNumber");
    expect(codes(order({ ReferenceNumber: "x".repeat(65) }))).toContain("TOO_LONG@ReferenceNumber");
    expect(codes(order({ ReferenceNumber: ` ${"x".repeat(64)} ` }))).toEqual([]);
    expect(validate(order({ ReferenceNumber: "  R-1 " })).order?.ReferenceNumber).toBe("R-1");
  });

  it("ExternalReference ≤ 64 and Note ≤ 300", () => {
    expect(codes(order({ ExternalReference: "x".repeat(65) }))).toContain("TOO_LONG@ExternalReference");
    expect(codes(order({ Note: "x".repeat(301) }))).toContain("TOO_LONG@Note");
    expect(codes(order({ Note: "x".repeat(300), ExternalReference: "y".repeat(64) }))).toEqual([]);
  });

  it("Recipient fields: required, lengths, email and phone formats", () => {
    expect(codes(order({ Recipient: undefined }))).toContain("REQUIRED@Recipient");
    expect(codes(order({ Recipient: recipient({ Name: "" }) }))).toContain("REQUIRED@Recipient.Name");
    expect(codes(order({ Recipient: recipient({ Name: "x".repeat(101) }) }))).toContain("TOO_LONG@Recipient.Name");
    expect(codes(order({ Recipient: recipient({ Street: "x".repeat(101) }) }))).toContain("TOO_LONG@Recipient.Street");
    expect(codes(order({ Recipient: recipient({ City: "x".repeat(61) }) }))).toContain("TOO_LONG@Recipient.City");
    expect(codes(order({ Recipient: recipient({ Email: "not-an-email" }) }))).toContain(
      "INVALID_FORMAT@Recipient.Email",
    );
    expect(codes(order({ Recipient: recipient({ Phone: "12345678" }) }))).toContain("INVALID_FORMAT@Recipient.Phone");
    expect(codes(order({ Recipient: recipient({ Phone: "+123456" }) }))).toContain("INVALID_FORMAT@Recipient.Phone");
    expect(codes(order({ Recipient: recipient({ Phone: "+1234567890123456" }) }))).toContain(
      "INVALID_FORMAT@Recipient.Phone",
    );
    expect(codes(order({ Recipient: recipient({ Phone: "+1234567" }) }))).toContain("INVALID_FORMAT@Recipient.Phone");
    expect(codes(order({ Recipient: recipient({ Phone: "+420 777 123 456" }) }))).toEqual([]);
    expect(codes(order({ Recipient: recipient({ Phone: "+49 (30) 123-456" }) }))).toEqual([]);
    expect(validate(order({ Recipient: recipient({ Phone: "+420 777 123 456" }) })).order?.Recipient.Phone).toBe(
      "+420777123456",
    );
    expect(codes(order({ Recipient: recipient({ Country: "XX" }) }))).toContain("INVALID_FORMAT@Recipient.Country");
  });

  it("Recipient.Phone: national numbers read by Recipient.Country and kept in E.164; an invalid one is an ERROR at the field", () => {
    const phoneOf = (r: Record<string, unknown>) => validate(order({ Recipient: recipient(r) })).order?.Recipient.Phone;
    expect(phoneOf({ Phone: "777 123 456" })).toBe("+420777123456");
    expect(phoneOf({ Phone: "00420777123456" })).toBe("+420777123456");
    expect(phoneOf({ Phone: "0912 345 678", Zip: "811 01", Country: "sk" })).toBe("+421912345678");
    const refused = validate(order({ Recipient: recipient({ Phone: "777 123 456", Zip: "811 01", Country: "SK" }) }));
    expect(refused.order).toBeNull();
    expect(refused.response.messages).toEqual([
      {
        code: "INVALID_FORMAT",
        severity: "ERROR",
        field: "Recipient.Phone",
        message:
          "Recipient.Phone is not a valid phone number of SK; a number of another country needs + and its country code",
      },
    ]);
    // A national number cannot be read without a country: both fields say so.
    expect(codes(order({ Recipient: recipient({ Phone: "777 123 456", Country: "XX" }) }))).toEqual([
      "INVALID_FORMAT@Recipient.Country",
      "INVALID_FORMAT@Recipient.Phone",
    ]);
  });

  it.each([
    ["CZ", "110 00", true],
    ["CZ", "11000", true],
    ["CZ", "1100", false],
    ["SK", "811 01", true],
    ["SK", "8110A", false],
    ["DE", "10115", true],
    ["DE", "1011", false],
    ["AT", "1010", true],
    ["AT", "10100", false],
    ["HU", "1051", true],
    ["PL", "00-950", true],
    ["PL", "00950", false],
    ["FR", "75001", true],
    ["FR", "x".repeat(17), false],
  ])("Zip for %s: %s → valid %s", (country, zip, valid) => {
    const messages = validate(order({ Recipient: recipient({ Country: country, Zip: zip }) })).response.messages.filter(
      (m) => m.field === "Recipient.Zip",
    );
    expect(messages.length === 0).toBe(valid);
  });

  it("Parcels: 1..20, Weight > 0 and within the courier's limit, dimensions > 0", () => {
    expect(codes(order({ Parcels: [] }))).toContain("OUT_OF_RANGE@Parcels");
    expect(codes(order({ Parcels: Array.from({ length: 21 }, () => ({ Weight: 1 })) }))).toContain(
      "OUT_OF_RANGE@Parcels",
    );
    expect(codes(order({ Parcels: Array.from({ length: 20 }, () => ({ Weight: 1 })) }))).toEqual([]);
    expect(codes(order({ Parcels: [{ Weight: 0 }] }))).toContain("OUT_OF_RANGE@Parcels[0].Weight");
    expect(codes(order({ Parcels: [{}] }))).toContain("REQUIRED@Parcels[0].Weight");
    expect(codes(order({ Parcels: [{ Weight: 1 }, { Weight: 31.6 }] }))).toContain(
      "WEIGHT_LIMIT_EXCEEDED@Parcels[1].Weight",
    );
    expect(codes(order({ Parcels: [{ Weight: 31.5 }] }))).toEqual([]);
    expect(codes(order({ Parcels: [{ Weight: 1, Length: 0 }] }))).toContain("OUT_OF_RANGE@Parcels[0].Length");
    expect(codes(order({ Parcels: [{ Weight: "1" }] }))).toContain("INVALID_FORMAT@Parcels[0].Weight");
  });

  it("COD: ≥ 0, two decimals, currency required, ISO 4217, supported by the courier", () => {
    expect(codes(order({ CodPrice: 10 }))).toContain("REQUIRED@CodCurrency");
    expect(codes(order({ CodPrice: -1, CodCurrency: "CZK" }))).toContain("OUT_OF_RANGE@CodPrice");
    expect(codes(order({ CodPrice: 1.234, CodCurrency: "CZK" }))).toContain("INVALID_FORMAT@CodPrice");
    expect(codes(order({ CodPrice: 10.25, CodCurrency: "ABC" }))).toContain("INVALID_FORMAT@CodCurrency");
    expect(codes(order({ CodPrice: 10.25, CodCurrency: "USD" }))).toContain("COD_NOT_SUPPORTED@CodCurrency");
    expect(codes(order({ CodPrice: 10.25, CodCurrency: "EUR" }))).toEqual([]);
    const noCod = validateOrder(
      order({ CodPrice: 10, CodCurrency: "EUR" }),
      { ...caps, codCurrencies: [] },
      { service: null },
    );
    expect(noCod.response.messages.map((m) => m.code)).toContain("COD_NOT_SUPPORTED");
  });

  it("VariableSymbol 1..10 digits, InsurancePrice ≥ 0", () => {
    expect(codes(order({ VariableSymbol: "12345678901" }))).toContain("INVALID_FORMAT@VariableSymbol");
    expect(codes(order({ VariableSymbol: "12a" }))).toContain("INVALID_FORMAT@VariableSymbol");
    expect(codes(order({ VariableSymbol: 1234567890 }))).toEqual([]);
    expect(codes(order({ InsurancePrice: -0.01 }))).toContain("OUT_OF_RANGE@InsurancePrice");
  });

  it("countries and services come from the courier", () => {
    expect(codes(order({ Recipient: recipient({ Country: "US", Zip: "10001" }) }))).toContain(
      "UNSUPPORTED_COUNTRY@Recipient.Country",
    );
    expect(codes(order({ Service: "OVERNIGHT" }))).toContain("UNSUPPORTED_SERVICE@Service");
    expect(codes(order({ Service: "PICKUP_POINT" }))).toContain("REQUIRED@PickupPoint");
    expect(codes(order({ Service: "PICKUP_POINT", PickupPoint: "PP-1" }))).toEqual([]);
    expect(validate(order(), "EXPRESS").service).toBe("EXPRESS");
    expect(validate(order({ Service: "STANDARD" }), "EXPRESS").service).toBe("STANDARD");
  });

  it("source pair: both or neither; blank means the default pair", () => {
    expect(codes(order({ ReferenceSource: "shop" }))).toContain("SOURCE_PAIR_INCOMPLETE@SourceIdentifier");
    expect(codes(order({ SourceIdentifier: "eshop-1" }))).toContain("SOURCE_PAIR_INCOMPLETE@ReferenceSource");
    const blank = validate(order({ ReferenceSource: " ", SourceIdentifier: "" }));
    expect(blank.response.messages).toEqual([]);
    expect([blank.referenceSource, blank.sourceIdentifier]).toEqual(["api", "default"]);
    const named = validate(order({ ReferenceSource: "Shop", SourceIdentifier: "EU" }));
    expect([named.referenceSource, named.sourceIdentifier]).toEqual(["Shop", "EU"]);
  });

  it("warns NO_RECIPIENT_CONTACT when neither Email nor Phone is given", () => {
    const result = validate(order({ Recipient: recipient({ Email: undefined, Phone: "" }) }));
    expect(result.response.status).toBe("WARNING");
    expect(result.response.messages).toEqual([
      expect.objectContaining({ code: "NO_RECIPIENT_CONTACT", severity: "WARNING" }),
    ]);
  });

  it("matches field names case-insensitively and ignores unknown fields", () => {
    const result = validate({
      referencenumber: "R1",
      RECIPIENT: { name: "A", street: "B", city: "C", zip: "11000", country: "cz", email: "a@b.cz" },
      parcels: [{ weight: 2 }],
      Secret: "x",
    });
    expect(result.response.status).toBe("OK");
    expect(result.order).not.toHaveProperty("Secret");
    expect(result.order?.Recipient.Country).toBe("CZ");
  });

  it("reports a body that is no object as INVALID_FORMAT of the body", () => {
    expect(codes("hello")).toContain("INVALID_FORMAT@body");
  });

  it("marks a repeated reference and pair in one request as DUPLICATE_IN_REQUEST", () => {
    const batch = [
      order({ ReferenceNumber: "D1" }),
      order({ ReferenceNumber: "D1" }),
      order({ ReferenceNumber: "D1", ReferenceSource: "shop", SourceIdentifier: "a" }),
    ].map((o) => validate(o));
    markDuplicatesInRequest(batch);
    expect(batch.map((b) => b.response.status)).toEqual(["OK", "ERROR", "OK"]);
    expect(batch[1]!.response.messages[0]).toMatchObject({ code: "DUPLICATE_IN_REQUEST", field: "ReferenceNumber" });
  });
});
