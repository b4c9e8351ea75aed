import { describe, expect, it } from "vitest";
import { mergeDraft } from "./order-draft";

/** The inputs of a form without Note, dimensions or VariableSymbol. */
const CONTROLLED = [
  "ReferenceNumber",
  "ReferenceSource",
  "SourceIdentifier",
  "Service",
  "PickupPoint",
  ...["Name", "Company", "Street", "City", "Zip", "Country", "Email", "Phone"].map((f) => `Recipient.${f}`),
  "Parcels[].Weight",
  "CodPrice",
  "CodCurrency",
];

describe("mergeDraft", () => {
  it("puts the form's fields over the order as sent, keeping its key order and the fields the form has no input for", () => {
    const sent = {
      Note: "ring twice",
      ReferenceNumber: "COURIER-FAIL-1",
      Recipient: { Zip: "110 00", Name: "Jana", Company: "ACME", Street: "Dlouhá 12", City: "Praha", Country: "CZ" },
      Parcels: [{ Weight: 1, Length: 30 }],
      VariableSymbol: "123",
    };
    const built = {
      ReferenceNumber: "FIXED-1",
      Recipient: { Name: "Jana", Street: "Dlouhá 12", City: "Praha", Zip: "110 00", Country: "CZ" },
      Parcels: [{ Weight: 2 }, { Weight: 3 }],
    };
    const merged = mergeDraft(sent, built, CONTROLLED);
    expect(JSON.stringify(merged)).toBe(
      JSON.stringify({
        Note: "ring twice",
        ReferenceNumber: "FIXED-1",
        // Company was cleared in the form: it goes; the rest keeps the order it was sent in.
        Recipient: { Zip: "110 00", Name: "Jana", Street: "Dlouhá 12", City: "Praha", Country: "CZ" },
        Parcels: [{ Weight: 2, Length: 30 }, { Weight: 3 }],
        VariableSymbol: "123",
      }),
    );
  });

  it("sends what the form built when there was nothing to start from", () => {
    expect(mergeDraft(undefined, { ReferenceNumber: "A" }, CONTROLLED)).toEqual({ ReferenceNumber: "A" });
  });
});
