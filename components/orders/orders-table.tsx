"use client";

import { Package, SearchX } from "lucide-react";
import Link from "next/link";
import { withAccount } from "@/lib/account";
import { formatUtc } from "@/lib/format-utc";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { focusRing } from "@/lib/focus-ring";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { api } from "@/trpc/react";
import { orderFilters, orderListInput, type OrderFilters } from "@/lib/order-filters";
import { StatusBadge } from "./status-badge";

const muted = <span className="text-slate-500">—</span>;

export function OrdersTable({ accountId, filters }: { accountId: string; filters: OrderFilters }) {
  const [orders] = api.shippingOrders.list.useSuspenseQuery(orderListInput(accountId, filters));
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId });
  const { navigate, isPending } = useSearchNavigation();
  const courierName = (id: string) => couriers.find((c) => c.id === id)?.name ?? id;
  const profileName = (id: string) => profiles.items.find((p) => p.id === id)?.name ?? "Archived profile";

  if (orders.itemsCount === 0) {
    return orderFilters.isFiltered(filters) ? (
      <EmptyState
        icon={SearchX}
        title="No orders match these filters"
        action={
          <Button variant="secondary" onClick={() => navigate(new URLSearchParams())}>
            Clear filters
          </Button>
        }
      >
        Widen the date range or remove a filter. Deleted orders are not listed.
      </EmptyState>
    ) : (
      <EmptyState
        icon={Package}
        title="No shipping orders yet"
        action={
          <Button asChild variant="secondary">
            <a href="/docs">Read the API reference</a>
          </Button>
        }
      >
        Orders appear here once your shop sends them to the shipping API with an{" "}
        <Link className="text-blue-700 underline" href={withAccount("/dashboard/api-keys", accountId)}>
          API key
        </Link>
        .
      </EmptyState>
    );
  }

  if (orders.items.length === 0) {
    return (
      <EmptyState
        icon={SearchX}
        title={`There is no page ${orders.page}`}
        action={
          <Button variant="secondary" onClick={() => navigate(orderFilters.search({ ...filters, page: 1 }))}>
            Go to the first page
          </Button>
        }
      >
        These filters match {orders.itemsCount} {orders.itemsCount === 1 ? "order" : "orders"} on {orders.totalPages}{" "}
        {orders.totalPages === 1 ? "page" : "pages"}.
      </EmptyState>
    );
  }

  return (
    <div aria-busy={isPending} className={cn("transition-opacity", isPending && "opacity-60")}>
      <p className="mb-2 text-sm text-slate-600" aria-live="polite">
        {orders.itemsCount} {orders.itemsCount === 1 ? "order" : "orders"}
      </p>
      <Table aria-label="Shipping orders">
        <THead>
          <tr>
            <Th>Reference</Th>
            <Th>Shipping numbers</Th>
            <Th>Recipient</Th>
            <Th>Status</Th>
            <Th>Courier / profile</Th>
            <Th>Source</Th>
            <Th>Created (UTC)</Th>
          </tr>
        </THead>
        <TBody>
          {orders.items.map((order) => (
            <Tr key={order.id}>
              <Td>
                <Link
                  href={withAccount(`/dashboard/orders/${order.id}`, accountId)}
                  className={cn("rounded font-medium text-blue-700 underline-offset-2 hover:underline", focusRing)}
                >
                  {order.referenceNumber}
                </Link>
              </Td>
              <Td label="Shipping numbers" className="font-mono text-xs whitespace-nowrap">
                {order.shippingNumber.length > 0
                  ? order.shippingNumber.map((n) => (
                      <span key={n} className="block">
                        {n}
                      </span>
                    ))
                  : muted}
              </Td>
              <Td label="Recipient">
                <span className="block whitespace-nowrap text-slate-900">{order.recipient.name}</span>
                <span className="block text-xs whitespace-nowrap text-slate-500">
                  {order.recipient.city}, {order.recipient.country}
                </span>
              </Td>
              <Td label="Status">
                <StatusBadge status={order.status} />
              </Td>
              <Td label="Courier">
                <span className="block whitespace-nowrap">{courierName(order.courier)}</span>
                <span className="block text-xs text-slate-500">{profileName(order.courierProfile)}</span>
              </Td>
              <Td label="Source" className="font-mono text-xs whitespace-nowrap">
                {order.referenceSource} / {order.sourceIdentifier}
              </Td>
              <Td label="Created" className="whitespace-nowrap">
                {formatUtc(order.created)}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <Pager
        label="Order pages"
        envelope={orders}
        onPage={(page) => navigate(orderFilters.search({ ...filters, page }))}
      />
    </div>
  );
}
