import { describe, expect, it } from "vitest";
import { orderFilters, orderListInput } from "./order-filters";

describe("the orders list's status filter", () => {
  it("does not offer Cancelled: a cancelled shipment's order is removed and would never be listed", () => {
    const status = orderFilters.fields.status;
    if (status.kind !== "enum") throw new Error("status is an enum filter");
    const values = status.options.map((o) => o.value);
    expect(values).not.toContain("CANCELLED");
    expect(values).toEqual(["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED", "RETURNED"]);
  });
});

describe("the orders list's recipient search", () => {
  const parse = (query: string) => orderFilters.parse(Object.fromEntries(new URLSearchParams(query)));

  it("reads one text from the URL, commas kept, and writes it back", () => {
    const filters = parse("recipient=%20Nov%C3%A1k%2C%20Jan%20&status=CREATED");
    expect(filters.recipient).toBe("Novák, Jan");
    expect(orderFilters.search(filters).toString()).toBe("status=CREATED&recipient=Nov%C3%A1k%2C+Jan");
    expect(orderFilters.search({ ...filters, recipient: "" }).toString()).toBe("status=CREATED");
  });

  it("counts as a filter, so an empty list says no order matches", () => {
    const filters = parse("recipient=novak");
    expect(orderFilters.activeCount(filters)).toBe(1);
    expect(orderFilters.isFiltered(filters)).toBe(true);
    expect(orderFilters.isFiltered(parse(""))).toBe(false);
  });

  it("goes to the list as `recipient`, and not at all when empty", () => {
    expect(orderListInput("acc", parse("recipient=novak"))).toMatchObject({ recipient: "novak" });
    expect(orderListInput("acc", parse("")).recipient).toBeUndefined();
  });

  it("is a text field of the filter form, with the search's bounds", () => {
    expect(orderFilters.fields.recipient).toMatchObject({ kind: "text", maxLength: 100 });
    expect(parse(`recipient=${"x".repeat(150)}`).recipient).toHaveLength(100);
  });
});
