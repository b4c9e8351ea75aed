import { describe, expect, it } from "vitest";
import { orderFilters } from "./order-filters";

describe("the orders list's status filter", () => {
  it("does not offer Cancelled: a cancelled shipment's order is removed and would never be listed", () => {
    const status = orderFilters.fields.status;
    if (status.kind !== "enum") throw new Error("status is an enum filter");
    const values = status.options.map((o) => o.value);
    expect(values).not.toContain("CANCELLED");
    expect(values).toEqual(["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED", "RETURNED"]);
  });
});
