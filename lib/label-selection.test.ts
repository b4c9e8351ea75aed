import { describe, expect, it } from "vitest";
import {
  emptySelection,
  pageState,
  printRefusal,
  selectedOrders,
  toggleOrder,
  togglePage,
  type SelectableOrder,
} from "./label-selection";

const order = (ref: string, numbers = [`SBX-${ref}`]): SelectableOrder => ({
  id: `id-${ref}`,
  referenceNumber: ref,
  shippingNumber: numbers,
});
const rows = [order("A"), order("B"), order("C")];

describe("choosing orders on a page", () => {
  it("adds and removes one row, in the list's order", () => {
    let selection = emptySelection("page-1");
    selection = toggleOrder(selection, "page-1", "id-C", true);
    selection = toggleOrder(selection, "page-1", "id-A", true);
    expect(selectedOrders(selection, "page-1", rows).map((o) => o.referenceNumber)).toEqual(["A", "C"]);
    selection = toggleOrder(selection, "page-1", "id-C", false);
    expect(selectedOrders(selection, "page-1", rows).map((o) => o.referenceNumber)).toEqual(["A"]);
  });

  it("chooses every row of the page, or none", () => {
    expect(selectedOrders(togglePage("page-1", rows, true), "page-1", rows)).toEqual(rows);
    expect(selectedOrders(togglePage("page-1", rows, false), "page-1", rows)).toEqual([]);
  });

  it("starts with nothing chosen on another page or with other filters", () => {
    const selection = togglePage("page-1", rows, true);
    expect(selectedOrders(selection, "page-2", rows)).toEqual([]);
    const next = toggleOrder(selection, "page-2", "id-B", true);
    expect(selectedOrders(next, "page-2", rows).map((o) => o.referenceNumber)).toEqual(["B"]);
  });

  it("shows the page box checked, unchecked or partly", () => {
    expect(pageState(0, 3)).toBe(false);
    expect(pageState(2, 3)).toBe("indeterminate");
    expect(pageState(3, 3)).toBe(true);
  });
});

describe("printRefusal", () => {
  it("refuses an empty choice", () => {
    expect(printRefusal([])).toBe("Select the orders whose labels to print.");
  });

  it("names the chosen orders that have no label yet", () => {
    expect(printRefusal([order("A"), order("B", [])])).toBe(
      "B has no label yet (not created at the courier): unselect it to print the others.",
    );
    expect(printRefusal(["P", "Q", "R", "S", "T"].map((r) => order(r, [])))).toBe(
      "P, Q, R and 2 more have no label yet (not created at the courier): unselect them to print the others.",
    );
  });

  it("lets orders that all have labels be printed", () => {
    expect(printRefusal(rows)).toBeNull();
  });

  it("refuses more labels than one document holds", () => {
    const parcels = (n: number) => Array.from({ length: n }, (_, i) => `N${i}`);
    expect(printRefusal([order("A", parcels(60)), order("B", parcels(40))])).toBeNull();
    expect(printRefusal([order("A", parcels(60)), order("B", parcels(41))])).toBe(
      "These orders have 101 labels; one document holds at most 100: select fewer orders.",
    );
  });
});
