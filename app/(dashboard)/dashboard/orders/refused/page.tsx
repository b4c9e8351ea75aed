import type { Metadata } from "next";
import { canWrite } from "@/lib/account";
import { NewOrderButton } from "@/components/orders/new-order-button";
import { OrdersViews } from "@/components/orders/orders-views";
import { RefusedOrdersTable } from "@/components/refused-orders/refused-orders-table";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Refused orders" };

export default async function RefusedOrdersPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.refusedAttempts.list.prefetch({ accountId: account.id, page: 1 });
  return (
    <HydrateClient>
      <PageHeader
        title="Refused orders"
        description="Orders the courier refused, or whose answer never came. A refused order was not created: fix it and send it again. One marked Resolved was sent again and created since (sending it once more would replace that order). One marked Outcome unknown may exist at the courier: check there before sending it again."
        actions={canWrite(account) ? <NewOrderButton accountId={account.id} /> : null}
      />
      <OrdersViews accountId={account.id} current="refused" />
      <QueryBoundary what="refused orders" fallback={<TableSkeleton rows={4} />}>
        <RefusedOrdersTable key={account.id} accountId={account.id} canCreate={canWrite(account)} />
      </QueryBoundary>
    </HydrateClient>
  );
}
