import type { Metadata } from "next";
import { Suspense } from "react";
import { orderFilters, orderListInput } from "@/lib/order-filters";
import { canWrite } from "@/lib/account";
import { NewOrderButton } from "@/components/orders/new-order-button";
import { OrdersFilterForm } from "@/components/orders/orders-filter-form";
import { OrdersViews } from "@/components/orders/orders-views";
import { OrdersTable } from "@/components/orders/orders-table";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const [account, params] = await Promise.all([getSelectedAccount(searchParams), searchParams]);
  const filters = orderFilters.parse(params);
  void api.courierProfiles.couriers.prefetch();
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  void api.shippingOrders.list.prefetch(orderListInput(account.id, filters));
  // Keyed by the filters: after a back navigation or "Clear" the inputs show what the URL says.
  const filtersKey = JSON.stringify(filters);
  return (
    <HydrateClient>
      <PageHeader
        title="Orders"
        description="Shipping orders your systems created through the API or made here, newest first."
        actions={canWrite(account) ? <NewOrderButton accountId={account.id} /> : null}
      />
      <OrdersViews accountId={account.id} current="orders" />
      <Suspense fallback={<Skeleton className="mb-6 h-40 w-full" />}>
        <OrdersFilterForm key={filtersKey} accountId={account.id} filters={filters} />
      </Suspense>
      <QueryBoundary what="orders" fallback={<TableSkeleton rows={6} />} resetKey={filtersKey}>
        <OrdersTable key={account.id} accountId={account.id} filters={filters} />
      </QueryBoundary>
    </HydrateClient>
  );
}
