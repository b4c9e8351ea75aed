import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { SHIPPING_STATUSES, statusLabel } from "./shipping-status";
import { RECIPIENT_SEARCH } from "./recipient-search";
import { courierChoice, defineUrlFilters, type FilterValues } from "./url-filters";

/**
 * The statuses the list's filter offers. Not CANCELLED: a cancelled order is removed and answers "not found" (contract:
 * DELETE /shipping-orders/{id}), so a "Cancelled" choice would list nothing; the REST list still takes
 * `status=CANCELLED` for the orders a courier reports cancelled on its own.
 */
export const LISTED_STATUSES = SHIPPING_STATUSES.filter((s) => s !== "CANCELLED");

/** The orders list's filters, under the REST list's parameter names. */
export const orderFilters = defineUrlFilters({
  createdFrom: { kind: "day", id: "filter-created-from", label: "Created from" },
  createdTo: { kind: "day", id: "filter-created-to", label: "Created to", after: "createdFrom" },
  referenceNumbers: { kind: "list", id: "filter-references", label: "Reference numbers" },
  shippingNumbers: { kind: "list", id: "filter-shipping-numbers", label: "Shipping numbers" },
  status: {
    kind: "enum",
    id: "filter-status",
    label: "Status",
    anyLabel: "Any status",
    options: LISTED_STATUSES.map((s) => ({ value: s, label: statusLabel[s] })),
  },
  courier: courierChoice("filter-courier"),
  courierProfile: { kind: "choice", id: "filter-profile", label: "Courier profile", anyLabel: "Any profile" },
  recipient: {
    kind: "text",
    id: "filter-recipient",
    label: "Recipient name",
    maxLength: RECIPIENT_SEARCH.max,
    hint: `Part of the name, at least ${RECIPIENT_SEARCH.min} characters; case and accents are ignored.`,
  },
});

export type OrderFilters = FilterValues<typeof orderFilters.fields>;

export type OrderListInput = inferRouterInputs<AppRouter>["shippingOrders"]["list"];

const nonEmpty = <T>(values: T[]): T[] | undefined => (values.length > 0 ? values : undefined);

/**
 * The list query for the server prefetch and the table alike, so both use one cache entry. Values go to
 * the server as they are: the REST list's schema judges them and names any it refuses.
 */
export function orderListInput(accountId: string, f: OrderFilters): OrderListInput {
  return {
    accountId,
    page: String(f.page),
    createdFrom: f.createdFrom || undefined,
    createdTo: f.createdTo || undefined,
    referenceNumbers: nonEmpty(f.referenceNumbers),
    shippingNumbers: nonEmpty(f.shippingNumbers),
    status: nonEmpty(f.status),
    courier: f.courier ? [f.courier] : undefined,
    courierProfile: f.courierProfile ? [f.courierProfile] : undefined,
    recipient: f.recipient || undefined,
  };
}
