"use client";

import { Package, SearchX } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { withAccount } from "@/lib/account";
import { formatCod } from "@/lib/cod";
import { formatTime } from "@/lib/format-time";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { cn } from "@/lib/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { focusRing } from "@/lib/focus-ring";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { api } from "@/trpc/react";
import { emptySelection, pageState, selectedOrders, toggleOrder, togglePage } from "@/lib/label-selection";
import { orderFilters, orderListInput, type OrderFilters } from "@/lib/order-filters";
import { PrintLabelsButton } from "./print-labels-button";
import { StatusBadge } from "./status-badge";

const muted = <span className="text-slate-500">—</span>;

/** The orders list: a page of orders (or why there is none), rows chosen for printing their labels. */
export function OrdersTable({ accountId, filters }: { accountId: string; filters: OrderFilters }) {
  const input = orderListInput(accountId, filters);
  const [orders] = api.shippingOrders.list.useSuspenseQuery(input);
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId });
  const { navigate, isPending } = useSearchNavigation();
  const zone = useTimeZone(accountId);
  const courierName = (id: string) => couriers.find((c) => c.id === id)?.name ?? id;
  const profileName = (id: string) => profiles.items.find((p) => p.id === id)?.name ?? "Archived profile";
  // Chosen rows belong to this page of this query: another page or other filters start with none.
  const list = JSON.stringify(input);
  const [selection, setSelection] = useState(() => emptySelection(list));
  const chosen = selectedOrders(selection, list, orders.items);

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
            <Link href="/docs" prefetch={false}>
              Read the API reference
            </Link>
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
      <div className="mb-2 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex items-center gap-4">
          <p className="text-sm text-slate-600" aria-live="polite">
            {orders.itemsCount} {orders.itemsCount === 1 ? "order" : "orders"}
            <span className="text-slate-500"> · times in {zone}</span>
          </p>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <Checkbox
              checked={pageState(chosen.length, orders.items.length)}
              onCheckedChange={(checked) => setSelection(togglePage(list, orders.items, checked === true))}
            />
            Select all on this page
          </label>
        </div>
        <PrintLabelsButton accountId={accountId} orders={chosen} />
      </div>
      <Table aria-label="Shipping orders">
        <THead>
          <tr>
            <Th className="w-0">
              <span className="sr-only">Selected</span>
            </Th>
            <Th>Reference / source</Th>
            <Th>Shipping numbers</Th>
            <Th>Recipient</Th>
            <Th>COD</Th>
            <Th>Status</Th>
            <Th>Courier / profile</Th>
            {/* The zone is named beside the count: in the header it would widen the table past a 1280 px screen. */}
            <Th>Created</Th>
          </tr>
        </THead>
        <TBody>
          {orders.items.map((order) => (
            <Tr key={order.id}>
              <Td className="w-0 max-sm:float-right max-sm:ml-3">
                <Checkbox
                  aria-label={`Select order ${order.referenceNumber}`}
                  checked={selection.list === list && selection.ids.has(order.id)}
                  onCheckedChange={(checked) => setSelection(toggleOrder(selection, list, order.id, checked === true))}
                />
              </Td>
              <Td>
                {/* One flex item on a phone's card that may shrink: a long reference breaks instead of widening it. */}
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  <Link
                    href={withAccount(`/dashboard/orders/${order.id}`, accountId)}
                    className={cn("rounded font-medium text-blue-700 underline-offset-2 hover:underline", focusRing)}
                  >
                    {order.referenceNumber}
                  </Link>
                  <span className="block font-mono text-xs whitespace-nowrap text-slate-500">
                    <span className="sr-only">Source: </span>
                    {order.referenceSource} / {order.sourceIdentifier}
                  </span>
                </span>
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
              <Td label="COD" className="whitespace-nowrap">
                {formatCod(order.codPrice, order.codCurrency) ?? muted}
              </Td>
              <Td label="Status">
                <StatusBadge status={order.status} />
              </Td>
              <Td label="Courier">
                <span className="block whitespace-nowrap">{courierName(order.courier)}</span>
                <span className="block text-xs text-slate-500">{profileName(order.courierProfile)}</span>
              </Td>
              <Td label="Created" className="whitespace-nowrap">
                {formatTime(order.created, zone)}
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
