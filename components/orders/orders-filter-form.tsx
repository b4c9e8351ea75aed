"use client";

import { FilterForm } from "@/components/filter-form";
import { orderFilters, type OrderFilters } from "@/lib/order-filters";
import { api } from "@/trpc/react";

/** The orders list's filters, with the account's courier profiles to choose from. */
export function OrdersFilterForm({ accountId, filters }: { accountId: string; filters: OrderFilters }) {
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId });
  return (
    <FilterForm
      label="Filter orders"
      filters={orderFilters}
      values={filters}
      choices={{
        courier: couriers.map((c) => ({ value: c.id, label: c.name })),
        courierProfile: profiles.items.map((p) => ({
          value: p.id,
          label: p.name,
          description: couriers.find((c) => c.id === p.courier)?.name,
        })),
      }}
      columns={4}
      actions="in-grid"
    />
  );
}
