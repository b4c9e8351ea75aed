"use client";

import { FilterForm } from "@/components/filter-form";
import type { AccountChoice } from "@/lib/account";
import { resultFilters, type ResultFilters } from "@/lib/validation-result-filters";
import { api } from "@/trpc/react";

/** Filters of the validation history. Staff (who get `accounts`) also choose the account, first. */
export function ResultFilterForm({ filters, accounts }: { filters: ResultFilters; accounts: AccountChoice[] | null }) {
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  return (
    <FilterForm
      label="Filter validation results"
      filters={resultFilters}
      values={filters}
      choices={{
        courier: couriers.map((c) => ({ value: c.id, label: c.name })),
        filterAccount: accounts?.map((a) => ({ value: a.id, label: a.name })),
      }}
      order={["filterAccount", "reference", "status", "courier", "from", "to"]}
      columns={3}
      actions="below"
    />
  );
}
