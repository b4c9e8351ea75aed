import { describe, expect, it } from "vitest";
import { buildOrder, formValues } from "./build-order";
import { mergeDraft } from "./order-draft";
import { fieldsFor, ORDER_FIELDS } from "./order-fields";

/** An order with every field of the body given, parcel dimensions and all. */
const FULL = {
  ReferenceNumber: "ORD-1",
  ExternalReference: "EXT-1",
  ReferenceSource: "shoptet",
  SourceIdentifier: "shop-1",
  Service: "PICKUP_POINT",
  PickupPoint: "4321",
  Recipient: {
    Name: "Jana Nováková",
    Company: "ACME",
    Street: "Dlouhá 12",
    City: "Praha",
    Zip: "110 00",
    Country: "CZ",
    Email: "jana@example.com",
    Phone: "+420777123456",
  },
  Parcels: [
    { Weight: 1.5, Length: 30, Width: 20.5, Height: 10, Reference: "P-1" },
    { Weight: 2, Length: 40, Width: 30, Height: 25, Reference: "P-2" },
  ],
  CodPrice: 250.5,
  CodCurrency: "CZK",
  VariableSymbol: "1234567890",
  InsurancePrice: 1000,
  Note: "Ring twice",
};

const choicesOf = (order: typeof FULL) => ({
  parcelCount: order.Parcels.length,
  source: { referenceSource: order.ReferenceSource, sourceIdentifier: order.SourceIdentifier },
  service: order.Service,
  codCurrency: order.CodCurrency,
});

/** The form's inputs as the browser would submit them. */
function formData(values: Map<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of values) data.set(name, value);
  return data;
}

const PPL = {
  id: "ppl",
  services: [{ code: "PRIVATE", name: "Private", requiresPickupPoint: false }],
  codCurrencies: ["CZK"],
};
const PACKETA = {
  id: "packeta",
  services: [{ code: "PICKUP_POINT", name: "Pickup point", requiresPickupPoint: true }],
  codCurrencies: ["CZK"],
};

describe("buildOrder", () => {
  it("builds back an order with every field from the inputs the list renders it into, numbers as numbers", () => {
    const values = formValues(FULL, ORDER_FIELDS, FULL.Parcels.length);
    expect(values.get("Parcels[1].Height")).toBe("25");
    expect(values.get("VariableSymbol")).toBe("1234567890");
    const built = buildOrder(formData(values), choicesOf(FULL));
    expect(built).toEqual(FULL);
    // In the list's order, as the schema has it.
    expect(Object.keys(built)).toEqual(Object.keys(FULL));
  });

  it("reads decimal commas and leaves empty inputs out", () => {
    const values = new Map([
      ["ReferenceNumber", "A"],
      ["Parcels[0].Weight", "1,25"],
      ["Parcels[0].Length", ""],
      ["InsurancePrice", "12,5"],
      ["Note", "  "],
    ]);
    const built = buildOrder(formData(values), { parcelCount: 1, source: null, service: "", codCurrency: "CZK" });
    expect(built).toEqual({ ReferenceNumber: "A", Recipient: {}, Parcels: [{ Weight: 1.25 }], InsurancePrice: 12.5 });
  });

  it("sends on unchanged what the courier's form has no input for", () => {
    // PPL's form has no dimensions; Packeta's no variable symbol.
    for (const courier of [PPL, PACKETA]) {
      const fields = fieldsFor(courier);
      const values = formValues(FULL, fields, FULL.Parcels.length);
      const built = buildOrder(formData(values), { ...choicesOf(FULL), fields });
      const merged = mergeDraft(
        FULL,
        built,
        fields.map((f) => f.path),
      );
      expect(merged).toEqual(FULL);
    }
    const pplBuilt = buildOrder(formData(formValues(FULL, fieldsFor(PPL), 2)), {
      ...choicesOf(FULL),
      fields: fieldsFor(PPL),
    });
    expect(pplBuilt.Parcels).toEqual([
      { Weight: 1.5, Reference: "P-1" },
      { Weight: 2, Reference: "P-2" },
    ]);
  });

  it("keeps a hidden field with the parcel it belongs to when an earlier parcel is removed", () => {
    const fields = fieldsFor(PPL);
    // The form's first parcel is the original's second one, its weight changed.
    const values = new Map([["Parcels[0].Weight", "3"]]);
    const built = buildOrder(formData(values), { parcelCount: 1, source: null, service: "", codCurrency: "" });
    const merged = mergeDraft(
      FULL,
      built,
      fields.map((f) => f.path),
      [1],
    );
    expect(merged.Parcels).toEqual([{ Weight: 3, Length: 40, Width: 30, Height: 25 }]);
  });
});
