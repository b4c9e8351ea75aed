import type { inferRouterInputs } from "@trpc/server";
import type { ShippingStatus } from "@/db/schema";
import type { AppRouter } from "@/server/trpc/root";
import { dayParam, pageParam, paramValue, paramValues, searchOf, type SearchParamsRecord } from "./search-params";
import { SHIPPING_STATUSES } from "./shipping-status";

/** The orders list's filters as the URL holds them, under the REST list's parameter names. */
export type OrderFilters = {
  createdFrom: string;
  createdTo: string;
  referenceNumbers: string[];
  shippingNumbers: string[];
  status: ShippingStatus[];
  courier: string;
  courierProfile: string;
  page: number;
};

export function orderFiltersFrom(params: SearchParamsRecord): OrderFilters {
  return {
    createdFrom: dayParam(params, "createdFrom"),
    createdTo: dayParam(params, "createdTo"),
    referenceNumbers: paramValues(params, "referenceNumbers"),
    shippingNumbers: paramValues(params, "shippingNumbers"),
    // A status the list does not know is dropped rather than failing the page: the menu could not show it anyway.
    status: paramValues(params, "status").filter((s): s is ShippingStatus =>
      (SHIPPING_STATUSES as string[]).includes(s),
    ),
    courier: paramValue(params, "courier"),
    courierProfile: paramValue(params, "courierProfile"),
    page: pageParam(params),
  };
}

export const orderFiltersSearch = ({ page, ...filters }: OrderFilters): URLSearchParams =>
  searchOf({ ...filters, page: page > 1 ? page : undefined });

/** How many filters are set (a date range counts once), for the folded filter panel on narrow screens. */
export const activeFilters = (f: OrderFilters): number =>
  [
    f.createdFrom || f.createdTo,
    f.referenceNumbers.length,
    f.shippingNumbers.length,
    f.status.length,
    f.courier,
    f.courierProfile,
  ].filter(Boolean).length;

export const hasOrderFilters = (f: OrderFilters): boolean => activeFilters(f) > 0;

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
  };
}
