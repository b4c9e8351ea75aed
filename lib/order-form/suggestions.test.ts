import { describe, expect, it } from "vitest";
import { suggestionTarget, suggestionsOf, withFieldValue } from "./suggestions";

describe("suggestions", () => {
  it("reads a message's suggestions and skips malformed ones", () => {
    expect(suggestionsOf({ suggestions: [{ value: "12", text: "Point 12" }, { value: 3, text: "x" }, "y"] })).toEqual([
      { value: "12", text: "Point 12" },
    ]);
    expect(suggestionsOf({ code: "REQUIRED" })).toEqual([]);
  });

  it("puts a pickup-point rule's suggestion into PickupPoint, any other into the message's field", () => {
    const suggestion = { value: "12", text: "Point 12" };
    expect(suggestionTarget({ code: "PICKUP_POINT_NO_COD", field: "CodPrice" }, suggestion)).toBe("PickupPoint");
    expect(suggestionTarget({ code: "INVALID_FORMAT", field: "Recipient.Zip" }, suggestion)).toBe("Recipient.Zip");
    expect(suggestionTarget({ code: "X", field: null }, { ...suggestion, field: "Service" })).toBe("Service");
  });

  it("sets a path in a copy of the order, creating what is missing", () => {
    const order = { PickupPoint: "1", Recipient: { Zip: "11000" }, Parcels: [{ Weight: 1 }] };
    expect(withFieldValue(order, "PickupPoint", "2")).toMatchObject({ PickupPoint: "2" });
    expect(withFieldValue(order, "Recipient.Zip", "110 00")).toMatchObject({ Recipient: { Zip: "110 00" } });
    expect(withFieldValue(order, "Parcels[1].Weight", "3")).toMatchObject({
      Parcels: [{ Weight: 1 }, { Weight: "3" }],
    });
    expect(order.PickupPoint).toBe("1");
    expect(withFieldValue(null, "Recipient.City", "Brno")).toEqual({ Recipient: { City: "Brno" } });
  });
});
