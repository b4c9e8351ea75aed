import type { inferRouterInputs } from "@trpc/server";
import type { ValidationStatus } from "@/server/services/shipping-orders/validation-messages";
import type { AppRouter } from "@/server/trpc/root";
import { dayParam, pageParam, paramValue, paramValues, searchOf, type SearchParamsRecord } from "./search-params";

export const VALIDATION_STATUSES: ValidationStatus[] = ["OK", "WARNING", "ERROR"];

/** Staff pick which account's history they see; `ALL_ACCOUNTS` (the default for them) is every account. */
export const ALL_ACCOUNTS = "all";

/** The validation history's filters as the URL holds them. `from` and `to` are UTC days, both included. */
export type ResultFilters = {
  status: ValidationStatus[];
  courier: string;
  reference: string;
  from: string;
  to: string;
  filterAccount: string;
  page: number;
};

export function resultFiltersFrom(params: SearchParamsRecord): ResultFilters {
  return {
    status: paramValues(params, "status").filter((s): s is ValidationStatus =>
      (VALIDATION_STATUSES as string[]).includes(s),
    ),
    courier: paramValue(params, "courier"),
    // Not split at commas: it is one text to search for.
    reference:
      typeof params.reference === "string" ? params.reference.trim().slice(0, 200).replaceAll("\u0000", "") : "",
    from: dayParam(params, "from"),
    to: dayParam(params, "to"),
    filterAccount: paramValue(params, "filterAccount") || ALL_ACCOUNTS,
    page: pageParam(params),
  };
}

export const resultFiltersSearch = ({ page, filterAccount, ...f }: ResultFilters): URLSearchParams =>
  searchOf({
    ...f,
    filterAccount: filterAccount === ALL_ACCOUNTS ? undefined : filterAccount,
    page: page > 1 ? page : undefined,
  });

/** How many filters are set (a date range and staff's account choice count once each). */
export const activeResultFilters = (f: ResultFilters): number =>
  [f.status.length, f.courier, f.reference, f.from || f.to, f.filterAccount !== ALL_ACCOUNTS].filter(Boolean).length;

export const hasResultFilters = (f: ResultFilters): boolean =>
  Boolean(f.status.length || f.courier || f.reference || f.from || f.to);

export type ResultListInput = inferRouterInputs<AppRouter>["validationResults"]["list"];

const DAY_MS = 86_400_000;

/**
 * The list query for the prefetch and the table alike (one cache entry). Partners always see the selected
 * account; staff see the account they filtered on, or every account.
 */
export function resultListInput(account: { id: string; role: string }, f: ResultFilters): ResultListInput {
  const staff = account.role === "staff";
  return {
    accountId: staff ? (f.filterAccount === ALL_ACCOUNTS ? undefined : f.filterAccount) : account.id,
    status: f.status.length ? f.status : undefined,
    courier: f.courier || undefined,
    referenceNumber: f.reference || undefined,
    from: f.from ? new Date(`${f.from}T00:00:00Z`) : undefined,
    // The service's upper bound is exclusive: the day after `to` starts where the chosen day ends.
    to: f.to ? new Date(new Date(`${f.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
    page: f.page,
  };
}
