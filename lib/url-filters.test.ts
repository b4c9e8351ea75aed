import { describe, expect, it } from "vitest";
import { orderFilters } from "./order-filters";
import { ALL_ACCOUNTS, resultFilters } from "./validation-result-filters";

const params = (query: string) => {
  const record: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const before = record[key];
    record[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return record;
};

describe("orderFilters", () => {
  it("reads repeated keys and comma lists alike, and drops what the form could not show", () => {
    expect(
      orderFilters.parse(
        params(
          "createdFrom=2026-02-30&createdTo=2026-03-01&referenceNumbers=A,%20B&referenceNumbers=C&status=DELIVERED&status=LOST&courier=sandbox&page=0",
        ),
      ),
    ).toEqual({
      createdFrom: "",
      createdTo: "2026-03-01",
      referenceNumbers: ["A", "B", "C"],
      shippingNumbers: [],
      status: ["DELIVERED"],
      courier: "sandbox",
      courierProfile: "",
      recipient: "",
      page: 1,
    });
  });

  it("writes a link in the order of the definition, without empty filters or the first page", () => {
    const query =
      "createdFrom=2026-03-01&createdTo=2026-03-02&referenceNumbers=A&referenceNumbers=B&status=CREATED&courierProfile=p1&page=2";
    expect(orderFilters.search(orderFilters.parse(params(query))).toString()).toBe(query);
    expect(orderFilters.search(orderFilters.parse({ page: "1" })).toString()).toBe("");
  });

  it("counts a date range once", () => {
    const filters = orderFilters.parse(params("createdFrom=2026-03-01&createdTo=2026-03-02&status=CREATED"));
    expect(orderFilters.activeCount(filters)).toBe(2);
    expect(orderFilters.activeCount({ ...filters, createdFrom: "" })).toBe(2);
    expect(orderFilters.isFiltered(filters)).toBe(true);
    expect(orderFilters.isFiltered(orderFilters.parse({ page: "3" }))).toBe(false);
  });
});

describe("resultFilters", () => {
  it("takes the reference as one text to search for", () => {
    expect(resultFilters.parse({ reference: "  A,B\u0000 " }).reference).toBe("A,B");
    expect(resultFilters.parse({ reference: "x".repeat(300) }).reference).toHaveLength(200);
    expect(resultFilters.parse({ reference: ["A", "B"] }).reference).toBe("");
  });

  it("leaves every account out of the link: it is what staff see by default", () => {
    const filters = resultFilters.parse({});
    expect(filters.filterAccount).toBe(ALL_ACCOUNTS);
    expect(resultFilters.search(filters).toString()).toBe("");
    expect(resultFilters.search({ ...filters, filterAccount: "a1", status: ["ERROR"] }).toString()).toBe(
      "status=ERROR&filterAccount=a1",
    );
  });

  it("counts the account choice as active, but not as narrowing the list", () => {
    const filters = resultFilters.parse({ filterAccount: "a1" });
    expect(resultFilters.activeCount(filters)).toBe(1);
    expect(resultFilters.isFiltered(filters)).toBe(false);
    expect(resultFilters.isFiltered({ ...filters, to: "2026-03-01" })).toBe(true);
  });
});
