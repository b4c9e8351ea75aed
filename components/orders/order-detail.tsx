"use client";

import { canWrite, type AccountChoice } from "@/lib/account";
import { formatTime } from "@/lib/format-time";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { api } from "@/trpc/react";
import { DeleteOrderButton } from "./delete-order-button";
import { LabelActions } from "./label-actions";
import { OrderEvents } from "./order-events";
import { StatusBadge } from "./status-badge";
import { TrackingTimeline } from "./tracking-timeline";

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Facts({ items }: { items: [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      {items.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-500">{term}</dt>
          <dd className="min-w-0 break-words text-slate-900">{value ?? <span className="text-slate-500">—</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

const dimensions = (p: { length: number | null; width: number | null; height: number | null }) =>
  p.length && p.width && p.height ? `${p.length} × ${p.width} × ${p.height} cm` : null;

export function OrderDetail({ account, id }: { account: AccountChoice; id: string }) {
  const [order] = api.shippingOrders.get.useSuspenseQuery({ accountId: account.id, id });
  // Every time on the page is in the account's zone, named once, beside the order's creation.
  const zone = useTimeZone(account.id);
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId: account.id });
  const courier = couriers.find((c) => c.id === order.courier);
  const profile = profiles.items.find((p) => p.id === order.courierProfile);
  const service = courier?.services.find((s) => s.code === order.service);
  const labelUrl = `/dashboard/orders/${order.id}/label?account=${encodeURIComponent(account.id)}`;
  const { recipient } = order;

  return (
    <>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight text-slate-900">
            <span className="break-all">{order.referenceNumber}</span>
            <StatusBadge status={order.status} />
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            Created {formatTime(order.created, zone)} ({zone})
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <LabelActions labelUrl={labelUrl} reference={order.referenceNumber} />
          {canWrite(account) ? <DeleteOrderButton accountId={account.id} order={order} /> : null}
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <Card title="Recipient">
          <address className="text-sm text-slate-900 not-italic">
            <span className="block font-medium">{recipient.name}</span>
            {recipient.company ? <span className="block">{recipient.company}</span> : null}
            <span className="block">{recipient.street}</span>
            <span className="block">
              {recipient.zip} {recipient.city}
            </span>
            <span className="block">{recipient.country}</span>
          </address>
          <div className="mt-3">
            <Facts
              items={[
                ["Email", recipient.email],
                ["Phone", recipient.phone],
              ]}
            />
          </div>
        </Card>
        <Card title="Shipment">
          <Facts
            items={[
              ["Courier", courier?.name ?? order.courier],
              ["Profile", profile?.name ?? "Removed profile"],
              ["Service", service ? `${service.name} (${service.code})` : order.service],
              [
                "Source",
                <span
                  key="source"
                  className="font-mono text-xs"
                >{`${order.referenceSource} / ${order.sourceIdentifier}`}</span>,
              ],
              ["External reference", order.externalReference],
              [
                "Cash on delivery",
                order.codPrice !== null ? `${order.codPrice.toFixed(2)} ${order.codCurrency ?? ""}` : "None",
              ],
              ["Variable symbol", order.variableSymbol],
              ["Insurance", order.insurancePrice !== null ? order.insurancePrice.toFixed(2) : null],
              ["Pickup point", order.pickupPoint],
              ["Note", order.note],
            ]}
          />
        </Card>
        <section aria-labelledby="parcels-title" className="lg:col-span-2">
          <h2 id="parcels-title" className="mb-3 text-base font-semibold text-slate-900">
            Parcels and shipping numbers
          </h2>
          <Table>
            <THead>
              <tr>
                <Th>#</Th>
                <Th>Shipping number</Th>
                <Th>Weight</Th>
                <Th>Dimensions</Th>
                <Th>Reference</Th>
              </tr>
            </THead>
            <TBody>
              {order.parcels.map((parcel, i) => (
                <Tr key={parcel.shippingNumber}>
                  <Td label="Parcel">{i + 1}</Td>
                  <Td label="Shipping number" className="font-mono text-xs whitespace-nowrap">
                    {parcel.shippingNumber}
                  </Td>
                  <Td label="Weight" className="whitespace-nowrap">
                    {parcel.weight} kg
                  </Td>
                  <Td label="Dimensions" className="whitespace-nowrap">
                    {dimensions(parcel) ?? <span className="text-slate-500">—</span>}
                  </Td>
                  <Td label="Reference">{parcel.reference ?? <span className="text-slate-500">—</span>}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </section>
        <div className="lg:col-span-2">
          <TrackingTimeline tracking={order.shipmentTracking} timeZone={zone} />
        </div>
        <div className="lg:col-span-2">
          <OrderEvents accountId={account.id} orderId={order.id} timeZone={zone} />
        </div>
      </div>
    </>
  );
}
