"use client";

import { Filter, X } from "lucide-react";
import { useState } from "react";
import type { ShippingStatus } from "@/db/schema";
import { Button } from "@/components/ui/button";
import { Field, TextField } from "@/components/ui/field";
import { MultiSelect } from "@/components/ui/multi-select";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { ANY, CourierFilterSelect } from "@/components/courier-filter-select";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { api } from "@/trpc/react";
import { splitList } from "@/lib/search-params";
import { FilterActions, FilterPanel } from "../filter-panel";
import { activeFilters, hasOrderFilters, orderFiltersSearch, type OrderFilters } from "@/lib/order-filters";
import { SHIPPING_STATUSES, statusLabel } from "@/lib/shipping-status";

// Radix Select items cannot have an empty value; this one stands for "any".

const statusOptions = SHIPPING_STATUSES.map((s) => ({ value: s, label: statusLabel[s] }));

/** The list's filters. They apply on submit and live in the URL, so a reload or a shared link keeps them. */
export function OrdersFilterForm({ accountId, filters }: { accountId: string; filters: OrderFilters }) {
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId });
  const [status, setStatus] = useState<string[]>(filters.status);
  const [courier, setCourier] = useState(filters.courier || ANY);
  const [profile, setProfile] = useState(filters.courierProfile || ANY);
  const [rangeError, setRangeError] = useState<string>();
  const { navigate, isPending } = useSearchNavigation();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "");
    const [createdFrom, createdTo] = [text("createdFrom"), text("createdTo")];
    // Caught here so the message sits at the input; the server would refuse the range all the same.
    if (createdFrom && createdTo && createdFrom > createdTo) {
      setRangeError("Must not be before “Created from”.");
      document.getElementById("filter-created-to")?.focus();
      return;
    }
    setRangeError(undefined);
    navigate(
      orderFiltersSearch({
        createdFrom,
        createdTo,
        referenceNumbers: splitList(text("referenceNumbers")),
        shippingNumbers: splitList(text("shippingNumbers")),
        status: status as ShippingStatus[],
        courier: courier === ANY ? "" : courier,
        courierProfile: profile === ANY ? "" : profile,
        page: 1,
      }),
    );
  }

  return (
    <FilterPanel label="Filter orders" active={activeFilters(filters)} onSubmit={submit}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          id="filter-created-from"
          name="createdFrom"
          type="date"
          label="Created from (UTC)"
          defaultValue={filters.createdFrom}
        />
        <TextField
          id="filter-created-to"
          name="createdTo"
          type="date"
          label="Created to (UTC)"
          defaultValue={filters.createdTo}
          error={rangeError}
        />
        <TextField
          id="filter-references"
          name="referenceNumbers"
          label="Reference numbers"
          hint="Separate several with commas."
          defaultValue={filters.referenceNumbers.join(", ")}
          autoComplete="off"
        />
        <TextField
          id="filter-shipping-numbers"
          name="shippingNumbers"
          label="Shipping numbers"
          hint="Separate several with commas."
          defaultValue={filters.shippingNumbers.join(", ")}
          autoComplete="off"
        />
        <MultiSelect
          id="filter-status"
          label="Status"
          options={statusOptions}
          value={status}
          onChange={setStatus}
          anyLabel="Any status"
        />
        <CourierFilterSelect id="filter-courier" couriers={couriers} value={courier} onChange={setCourier} />
        <Field id="filter-profile" label="Courier profile">
          <Select value={profile} onValueChange={setProfile}>
            <SelectTrigger id="filter-profile" />
            <SelectContent>
              <SelectItem value={ANY}>Any profile</SelectItem>
              {profiles.items.map((p) => (
                <SelectItem key={p.id} value={p.id} description={couriers.find((c) => c.id === p.courier)?.name}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </Field>
        <FilterActions>
          <Button type="submit" disabled={isPending}>
            {isPending ? <Spinner /> : <Filter aria-hidden className="size-4" />}
            Apply filters
          </Button>
          {hasOrderFilters(filters) ? (
            <Button variant="ghost" onClick={() => navigate(new URLSearchParams())} disabled={isPending}>
              <X aria-hidden className="size-4" />
              Clear
            </Button>
          ) : null}
        </FilterActions>
      </div>
    </FilterPanel>
  );
}
