import { describe, expect, it } from "vitest";
import { z } from "zod";
import { orderRequestSchema, parcelSchema, recipientSchema } from "@/server/services/shipping-orders/order-request";
import { findCourier } from "@/server/couriers/registry";
import type { CourierCapabilities } from "@/server/couriers/adapter";
import { fieldsFor, hintFor, ORDER_FIELDS, usesField } from "./order-fields";

/** The body's leaf paths, read from the schema that validates it, so a field added there without a form field fails. */
function schemaPaths(): string[] {
  const shape = (schema: z.ZodType) => Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape);
  return shape(orderRequestSchema).flatMap((key) =>
    key === "Recipient"
      ? shape(recipientSchema).map((f) => `Recipient.${f}`)
      : key === "Parcels"
        ? shape(parcelSchema).map((f) => `Parcels[].${f}`)
        : [key],
  );
}

describe("order field descriptors", () => {
  it("describe every field of the request body, and nothing else", () => {
    expect(ORDER_FIELDS.map((f) => f.path).sort()).toEqual(schemaPaths().sort());
  });

  it("name each path once", () => {
    const paths = ORDER_FIELDS.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

const capabilities = (id: string): CourierCapabilities => {
  const courier = findCourier(id);
  if (!courier) throw new Error(`no courier ${id}`);
  return courier.capabilities;
};

const shown = (id: string) => fieldsFor(capabilities(id)).map((f) => f.path);

describe("fields per courier", () => {
  const common = ORDER_FIELDS.filter((f) => !f.couriers).map((f) => f.path);

  it("show every courier the fields every courier takes", () => {
    for (const id of ["sandbox", "ppl", "packeta"]) expect(shown(id)).toEqual(expect.arrayContaining(common));
    expect(common).toEqual(expect.arrayContaining(["ExternalReference", "Note", "Parcels[].Reference", "CodPrice"]));
  });

  it("show PPL its variable symbol and insurance, without parcel dimensions", () => {
    expect(shown("ppl")).toEqual(expect.arrayContaining(["VariableSymbol", "InsurancePrice"]));
    expect(shown("ppl")).not.toContain("Parcels[].Length");
  });

  it("show Packeta its insured value and parcel dimensions, without a variable symbol", () => {
    expect(shown("packeta")).toEqual(
      expect.arrayContaining(["InsurancePrice", "Parcels[].Length", "Parcels[].Width", "Parcels[].Height"]),
    );
    expect(shown("packeta")).not.toContain("VariableSymbol");
    const insurance = ORDER_FIELDS.find((f) => f.path === "InsurancePrice")!;
    expect(hintFor(insurance, "packeta")).toMatch(/Packeta needs a value/);
    expect(hintFor(insurance, "ppl")).not.toMatch(/Packeta/);
  });

  it("show the sandbox none of a real courier's own fields", () => {
    expect(shown("sandbox")).not.toContain("VariableSymbol");
    expect(shown("sandbox")).not.toContain("InsurancePrice");
    expect(shown("sandbox")).not.toContain("Parcels[].Height");
  });

  it("read cash on delivery and pickup points from the courier's capabilities", () => {
    const none = { id: "ppl", services: [{ code: "X", name: "X", requiresPickupPoint: false }], codCurrencies: [] };
    const names = fieldsFor(none).map((f) => f.path);
    for (const path of ["CodPrice", "CodCurrency", "VariableSymbol", "PickupPoint"]) expect(names).not.toContain(path);
    expect(names).toContain("InsurancePrice");
  });

  it("show a field to each courier that requires it", () => {
    for (const field of ORDER_FIELDS)
      for (const id of field.requiredBy ?? [])
        expect(usesField(capabilities(id), field), `${field.path} ${id}`).toBe(true);
  });
});
