"use client";

import { Filter, X } from "lucide-react";
import { useState } from "react";
import type { AccountChoice } from "@/lib/account";
import { Button } from "@/components/ui/button";
import { Field, TextField } from "@/components/ui/field";
import { MultiSelect } from "@/components/ui/multi-select";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { ANY, CourierFilterSelect } from "@/components/courier-filter-select";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import type { ValidationStatus } from "@/server/services/shipping-orders/validation-messages";
import { api } from "@/trpc/react";
import { FilterPanel } from "@/components/filter-panel";
import {
  activeResultFilters,
  ALL_ACCOUNTS,
  hasResultFilters,
  resultFiltersSearch,
  VALIDATION_STATUSES,
  type ResultFilters,
} from "@/lib/validation-result-filters";

const statusOptions = VALIDATION_STATUSES.map((s) => ({
  value: s,
  label: { OK: "OK", WARNING: "Warning", ERROR: "Error" }[s],
}));

/** Filters of the validation history, applied on submit and kept in the URL. Staff also choose the account. */
export function ResultFilterForm({ filters, accounts }: { filters: ResultFilters; accounts: AccountChoice[] | null }) {
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [status, setStatus] = useState<string[]>(filters.status);
  const [courier, setCourier] = useState(filters.courier || ANY);
  const [filterAccount, setFilterAccount] = useState(filters.filterAccount);
  const [rangeError, setRangeError] = useState<string>();
  const { navigate, isPending } = useSearchNavigation();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    if (text("from") && text("to") && text("from") > text("to")) {
      setRangeError("Must not be before “From”.");
      document.getElementById("filter-to")?.focus();
      return;
    }
    setRangeError(undefined);
    navigate(
      resultFiltersSearch({
        status: status as ValidationStatus[],
        courier: courier === ANY ? "" : courier,
        reference: text("reference"),
        from: text("from"),
        to: text("to"),
        filterAccount,
        page: 1,
      }),
    );
  }

  return (
    <FilterPanel label="Filter validation results" active={activeResultFilters(filters)} onSubmit={submit}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {accounts ? (
          <Field id="filter-account" label="Results of">
            <Select value={filterAccount} onValueChange={setFilterAccount}>
              <SelectTrigger id="filter-account" />
              <SelectContent>
                <SelectItem value={ALL_ACCOUNTS}>All accounts</SelectItem>
                {accounts.map((a) => (
                  <SelectItem key={a.id} value={a.id}>
                    {a.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
        ) : null}
        <TextField
          id="filter-reference"
          name="reference"
          label="Reference number contains"
          defaultValue={filters.reference}
          maxLength={200}
          autoComplete="off"
        />
        <MultiSelect
          id="filter-result-status"
          label="Status"
          options={statusOptions}
          value={status}
          onChange={setStatus}
          anyLabel="Any status"
        />
        <CourierFilterSelect id="filter-result-courier" couriers={couriers} value={courier} onChange={setCourier} />
        <TextField id="filter-from" name="from" type="date" label="From (UTC)" defaultValue={filters.from} />
        <TextField id="filter-to" name="to" type="date" label="To (UTC)" defaultValue={filters.to} error={rangeError} />
      </div>
      <div className="mt-4 flex gap-2">
        <Button type="submit" disabled={isPending}>
          {isPending ? <Spinner /> : <Filter aria-hidden className="size-4" />}
          Apply filters
        </Button>
        {hasResultFilters(filters) || filters.filterAccount !== ALL_ACCOUNTS ? (
          <Button variant="ghost" onClick={() => navigate(new URLSearchParams())} disabled={isPending}>
            <X aria-hidden className="size-4" />
            Clear
          </Button>
        ) : null}
      </div>
    </FilterPanel>
  );
}
