"use client";

import { withAccount, type AccountChoice } from "@/lib/account";
import { formatTime, inZone } from "@/lib/format-time";
import { statusLabel } from "@/lib/shipping-status";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { api } from "@/trpc/react";
import { BarList } from "./bar-list";

function Panel({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {description ? <p className="mt-0.5 text-xs text-slate-500">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

const none = (text: string) => <p className="text-sm text-slate-500">{text}</p>;

const dayLabel = (day: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** The account's figures: orders by status and source pair, recent validation errors, and how each key is used. */
export function OverviewStats({ account, days }: { account: AccountChoice; days: string[] }) {
  const [overview] = api.overview.get.useSuspenseQuery({ accountId: account.id });
  const zone = useTimeZone(account.id);
  const link = (path: string) => withAccount(path, account.id);
  const errorsOn = new Map(overview.validationErrorsByDay.map((d) => [d.day, d.count]));
  // The service counts a rolling week; a day at its start that is not among the last seven is still shown, not dropped.
  const allDays = [...new Set([...overview.validationErrorsByDay.map((d) => d.day), ...days])].sort();
  const totalOrders = overview.ordersByStatus.reduce((sum, s) => sum + s.count, 0);

  return (
    <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
      <Panel
        id="orders-by-status"
        title="Orders by status"
        description={`${totalOrders} live ${totalOrders === 1 ? "order" : "orders"}`}
      >
        {overview.ordersByStatus.length === 0 ? (
          none("No orders yet.")
        ) : (
          <BarList
            label="Orders by status"
            bars={overview.ordersByStatus.map((s) => ({
              key: s.status,
              label: statusLabel[s.status],
              value: s.count,
              href: `${link("/dashboard/orders")}&status=${s.status}`,
            }))}
          />
        )}
      </Panel>
      <Panel
        id="orders-by-source"
        title="Orders by source pair"
        description="Each order counts for the source pair it was created under."
      >
        {overview.ordersBySourcePair.length === 0 ? (
          none("No orders yet.")
        ) : (
          <BarList
            label="Orders by source pair"
            tone="bg-violet-500"
            bars={overview.ordersBySourcePair.map((p) => ({
              key: `${p.referenceSource}\u0000${p.sourceIdentifier}`,
              label: <span className="font-mono text-xs">{`${p.referenceSource} / ${p.sourceIdentifier}`}</span>,
              value: p.count,
            }))}
          />
        )}
      </Panel>
      <Panel
        id="validation-errors"
        title="Validation errors, last 7 days"
        description="Orders refused by validation (through validate or create), per UTC day."
      >
        <BarList
          label="Validation errors per day"
          tone="bg-red-500"
          bars={allDays.map((day) => ({
            key: day,
            label: dayLabel(day),
            value: errorsOn.get(day) ?? 0,
            href: `${link("/dashboard/validation-results")}&status=ERROR&from=${day}&to=${day}`,
          }))}
        />
      </Panel>
      <Panel id="key-usage" title="API key usage" description="Orders created with each active key in the last 7 days.">
        {overview.keyUsage.length === 0 ? (
          none("No active API keys.")
        ) : (
          <Table aria-label="API key usage">
            <THead>
              <tr>
                <Th>Key</Th>
                <Th>{inZone("Last used", zone)}</Th>
                <Th className="text-right">Orders, 7 days</Th>
              </tr>
            </THead>
            <TBody>
              {overview.keyUsage.map((k) => (
                <Tr key={k.id}>
                  <Td>
                    <span className="block font-medium text-slate-900">{k.name}</span>
                    <span className="block font-mono text-xs text-slate-500">{k.key}</span>
                  </Td>
                  <Td label="Last used" className="whitespace-nowrap">
                    {k.lastUsed ? formatTime(k.lastUsed, zone) : <span className="text-slate-500">Never</span>}
                  </Td>
                  <Td label="Orders, 7 days" className="tabular-nums sm:text-right">
                    {k.ordersLast7Days}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Panel>
    </div>
  );
}
