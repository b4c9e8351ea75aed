import { describe, expect, it } from "vitest";
import { ORDER_FIELDS, inputPaths } from "./order-fields";
import { fieldLabel, placeMessages } from "./order-paths";
import { error } from "@/lib/validation-message";

const concrete = (path: string) => path.replace("[]", "[2]");

describe("fieldLabel", () => {
  it("names every field of the list, parcels by their number", () => {
    for (const field of ORDER_FIELDS) {
      const label = fieldLabel(concrete(field.path));
      // The field's own name, else the words of its input's label: never the API's path.
      const words = field.name ?? field.label.replace(/ \(optional\)$/, "").replace(/, optional\)$/, ")");
      expect(label, field.path).toBe(field.path.startsWith("Parcels[]") ? `Parcel 3 ${words}` : words);
      expect(label, field.path).not.toMatch(/optional/);
    }
    expect(fieldLabel("Parcels[2].Height")).toBe("Parcel 3 height (cm)");
    expect(fieldLabel("Parcels[0].Weight")).toBe("Parcel 1 weight (kg)");
    expect(fieldLabel("Parcels[1].Reference")).toBe("Parcel 2 reference");
  });

  it("keeps the words the summary and the suggestions have used", () => {
    expect(fieldLabel("ReferenceNumber")).toBe("Reference number");
    expect(fieldLabel("SourcePair")).toBe("Source");
    expect(fieldLabel("PickupPoint")).toBe("Pickup point");
    expect(fieldLabel("Recipient.Name")).toBe("Recipient name");
    expect(fieldLabel("Recipient.Company")).toBe("Recipient company");
    expect(fieldLabel("Recipient.Email")).toBe("Email");
    expect(fieldLabel("CodPrice")).toBe("Cash on delivery amount");
    expect(fieldLabel("CodCurrency")).toBe("Cash on delivery currency");
    expect(fieldLabel("VariableSymbol")).toBe("Variable symbol");
    expect(fieldLabel("InsurancePrice")).toBe("Insured value");
    expect(fieldLabel("Parcels")).toBe("Parcels");
  });
});

describe("input paths", () => {
  it("cover every field of the list, parcels' once per parcel", () => {
    const paths = new Set(inputPaths(ORDER_FIELDS, 3));
    for (const field of ORDER_FIELDS) {
      if (field.path.startsWith("Parcels[].")) {
        for (const i of [0, 1, 2]) expect(paths.has(field.path.replace("[]", `[${i}]`)), field.path).toBe(true);
        expect(paths.has(field.path.replace("[]", "[3]"))).toBe(false);
      } else expect(paths.has(field.input ?? field.path), field.path).toBe(true);
    }
    expect(paths.has("SourcePair")).toBe(true);
    expect(paths.has("ReferenceSource")).toBe(false);
  });

  it("place a parcel dimension's message at its input, and a source half's at the pair", () => {
    const message = (field: string) => error("X", field, `${field} is wrong`);
    const placed = placeMessages(
      [message("Parcels[1].Length"), message("SourceIdentifier"), message("Parcels[5].Length")],
      new Set(inputPaths(ORDER_FIELDS, 2)),
    );
    expect(placed.at("Parcels[1].Length")).toHaveLength(1);
    expect(placed.at("SourcePair")).toHaveLength(1);
    expect(placed.unplaced.map((m) => m.field)).toEqual(["Parcels[5].Length"]);
  });
});
