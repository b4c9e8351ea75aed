import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { courierChoice, defineUrlFilters, type FilterValues } from "./url-filters";
import { VALIDATION_STATUSES, validationStatusLabel } from "./validation-status";

/** Staff pick which account's history they see; `ALL_ACCOUNTS` (the default for them) is every account. */
export const ALL_ACCOUNTS = "all";

/** The validation history's filters. `from` and `to` are UTC days, both included. */
export const resultFilters = defineUrlFilters({
  status: {
    kind: "enum",
    id: "filter-result-status",
    label: "Status",
    anyLabel: "Any status",
    options: VALIDATION_STATUSES.map((s) => ({ value: s, label: validationStatusLabel[s] })),
  },
  courier: courierChoice("filter-result-courier"),
  reference: { kind: "text", id: "filter-reference", label: "Reference number contains", maxLength: 200 },
  from: { kind: "day", id: "filter-from", label: "From" },
  to: { kind: "day", id: "filter-to", label: "To", after: "from" },
  filterAccount: {
    kind: "choice",
    id: "filter-account",
    label: "Results of",
    anyLabel: "All accounts",
    all: ALL_ACCOUNTS,
    scope: true,
  },
});

export type ResultFilters = FilterValues<typeof resultFilters.fields>;

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
