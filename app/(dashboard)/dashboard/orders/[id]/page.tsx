import { TRPCError } from "@trpc/server";
import { ArrowLeft, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound as respondNotFound } from "next/navigation";
import { withAccount } from "@/lib/account";
import { OrderDetail } from "@/components/orders/order-detail";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { focusRing } from "@/lib/focus-ring";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Order" };

export default async function OrderPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: DashboardSearchParams;
}) {
  const [account, { id }] = await Promise.all([getSelectedAccount(searchParams), params]);
  const ordersHref = withAccount("/dashboard/orders", account.id);
  const back = (
    <Link
      href={ordersHref}
      className={cn(
        "mb-4 inline-flex items-center gap-1 rounded text-sm text-slate-600 hover:text-slate-900",
        focusRing,
      )}
    >
      <ArrowLeft aria-hidden className="size-4" />
      Orders
    </Link>
  );
  const notFound = (
    <EmptyState
      icon={SearchX}
      title="Order not found"
      action={
        <Button asChild variant="secondary">
          <Link href={ordersHref}>Back to orders</Link>
        </Button>
      }
    >
      This order does not exist in this account, or it was deleted or replaced by a newer order with the same reference
      number.
    </EmptyState>
  );
  // A missing order is answered here, with a 404 (not-found.tsx beside this page): left to the prefetch, it
  // would fail the server render of the page and make the browser render it again to find out.
  if (!(await orderExists(account.id, id))) respondNotFound();
  void api.shippingOrders.get.prefetch({ accountId: account.id, id });
  void api.courierProfiles.couriers.prefetch();
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  return (
    <HydrateClient>
      {back}
      <QueryBoundary
        what="order"
        resetKey={id}
        fallback={
          <div role="status" aria-label="Loading the order">
            <Skeleton className="mb-6 h-8 w-64" />
            <TableSkeleton rows={5} />
          </div>
        }
        notFound={notFound}
      >
        <OrderDetail key={id} account={account} id={id} />
      </QueryBoundary>
    </HydrateClient>
  );
}

async function orderExists(accountId: string, id: string): Promise<boolean> {
  try {
    await api.shippingOrders.get({ accountId, id });
    return true;
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") return false;
    throw error;
  }
}
