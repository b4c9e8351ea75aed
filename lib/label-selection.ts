import { MAX_LABELS } from "./label-formats";

/** What choosing orders for a labels print needs of an order of the list. */
export type SelectableOrder = { id: string; referenceNumber: string; shippingNumber: string[] };

/**
 * Rows chosen on one page of one list. The list's key (its query) is kept with the ids, so another page, other
 * filters or another account start with nothing chosen rather than with rows no longer on screen.
 */
export type Selection = { list: string; ids: ReadonlySet<string> };

export const emptySelection = (list: string): Selection => ({ list, ids: new Set() });

/** The orders of `rows` that are chosen, in the list's order. */
export function selectedOrders<T extends SelectableOrder>(selection: Selection, list: string, rows: T[]): T[] {
  return selection.list === list ? rows.filter((r) => selection.ids.has(r.id)) : [];
}

/** One row chosen or not. */
export function toggleOrder(selection: Selection, list: string, id: string, chosen: boolean): Selection {
  const ids = new Set(selection.list === list ? selection.ids : []);
  if (chosen) ids.add(id);
  else ids.delete(id);
  return { list, ids };
}

/** Every row of the page chosen, or none. */
export const togglePage = (list: string, rows: SelectableOrder[], chosen: boolean): Selection => ({
  list,
  ids: new Set(chosen ? rows.map((r) => r.id) : []),
});

/** The "select all on this page" box: checked, unchecked, or partly (`indeterminate`). */
export function pageState(chosen: number, rows: number): boolean | "indeterminate" {
  if (chosen === 0) return false;
  return chosen === rows ? true : "indeterminate";
}

/** An order has a label once the courier gave it shipping numbers (a parcel's label is its number's). */
export const hasLabel = (order: SelectableOrder): boolean => order.shippingNumber.length > 0;

/** Why the chosen orders' labels cannot be printed, or null when they can. */
export function printRefusal(chosen: SelectableOrder[]): string | null {
  if (chosen.length === 0) return "Select the orders whose labels to print.";
  const without = chosen.filter((o) => !hasLabel(o)).map((o) => o.referenceNumber);
  if (without.length === 0) {
    const labels = chosen.reduce((n, o) => n + o.shippingNumber.length, 0);
    return labels > MAX_LABELS
      ? `These orders have ${labels} labels; one document holds at most ${MAX_LABELS}: select fewer orders.`
      : null;
  }
  const names =
    without.length <= 3 ? without.join(", ") : `${without.slice(0, 3).join(", ")} and ${without.length - 3} more`;
  return `${names} ${without.length === 1 ? "has" : "have"} no label yet (not created at the courier): unselect ${without.length === 1 ? "it" : "them"} to print the others.`;
}
