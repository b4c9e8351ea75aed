"use client";

import { ChartColumn, Download } from "lucide-react";
import Link from "next/link";
import { withAccount, type AccountChoice } from "@/lib/account";
import { cn } from "@/lib/cn";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { StatisticsItem } from "@/server/services/statistics/schemas";
import { api } from "@/trpc/react";
import { formatCount, formatMoney, formatRate, rate } from "./format";
import { Panel, nothing } from "./panel";
import { longDay, longPeriod, periodsBetween, type Grouping } from "./period";
import { PeriodBarChart, type ChartRow } from "./period-bar-chart";
import { keyOf, seriesOf, type Names, type Series } from "./series";
import { downloadText, statisticsCsv } from "./statistics-csv";
import { dimensionLabel, type StatisticsInput } from "./statistics-params";

const linkClass = "font-medium text-blue-700 underline underline-offset-2 hover:text-blue-800";

const perPeriod: Record<Grouping, string> = { day: "per day", week: "per week", month: "per month" };

type KeyFigures = { series: Series; created: number; refused: number; validations: number; errors: number };

/** The figures the page draws, summed from the items (which are per period and per breakdown value). */
function summarise(items: StatisticsItem[], series: Series[], by: StatisticsInput["by"][number], periods: string[]) {
  const seriesByKey = new Map(series.map((s) => [s.key, s]));
  const zeros = () => Object.fromEntries(series.map((s) => [s.id, 0])) as Record<string, number>;
  const created = new Map<string, ChartRow>(periods.map((period) => [period, { period, ...zeros() }]));
  const deliveries = new Map<string, ChartRow>(
    periods.map((period) => [period, { period, delivered: 0, returned: 0 }]),
  );
  const byKey = new Map<string, KeyFigures>(
    series.map((s) => [s.key, { series: s, created: 0, refused: 0, validations: 0, errors: 0 }]),
  );
  const cod = new Map<string, number>();
  const totals = { created: 0, refused: 0, validations: 0, errors: 0, delivered: 0, returned: 0 };

  for (const item of items) {
    const s = seriesByKey.get(keyOf(item, by))!;
    // A period the service names that the page did not expect is added rather than dropped.
    const row = created.get(item.period) ?? { period: item.period, ...zeros() };
    created.set(item.period, row);
    row[s.id] = Number(row[s.id] ?? 0) + item.created;
    const delivery = deliveries.get(item.period) ?? { period: item.period, delivered: 0, returned: 0 };
    deliveries.set(item.period, delivery);
    delivery.delivered = Number(delivery.delivered) + item.delivered;
    delivery.returned = Number(delivery.returned) + item.returned;

    const validations = item.validations.ok + item.validations.warning + item.validations.error;
    const figures = byKey.get(s.key)!;
    figures.created += item.created;
    figures.refused += item.refused;
    figures.validations += validations;
    figures.errors += item.validations.error;

    totals.created += item.created;
    totals.refused += item.refused;
    totals.validations += validations;
    totals.errors += item.validations.error;
    totals.delivered += item.delivered;
    totals.returned += item.returned;
    for (const c of item.cod) cod.set(c.currency, Math.round(((cod.get(c.currency) ?? 0) + c.amount) * 100) / 100);
  }

  const byPeriod = (a: ChartRow, b: ChartRow) => (a.period < b.period ? -1 : 1);
  const failures = (f: KeyFigures) => f.refused + f.errors;
  return {
    created: [...created.values()].sort(byPeriod),
    deliveries: [...deliveries.values()].sort(byPeriod),
    // The pairs that fail most on top, as staff's table of accounts does.
    byKey: [...byKey.values()].sort(
      (a, b) => failures(b) - failures(a) || b.created - a.created || a.series.label.localeCompare(b.series.label),
    ),
    cod: [...cod].filter(([, amount]) => amount !== 0).sort(([a], [b]) => (a < b ? -1 : 1)),
    totals,
  };
}

/** The account's figures for the chosen period, grouping, breakdown and filters: totals, charts and their tables. */
export function StatisticsDashboard({ account, input }: { account: AccountChoice; input: StatisticsInput }) {
  const [view] = api.statistics.get.useSuspenseQuery(input);
  const [profiles] = api.courierProfiles.list.useSuspenseQuery({ accountId: account.id });
  const [couriers] = api.courierProfiles.couriers.useSuspenseQuery();
  const by = input.by[0]!;
  const names: Names = {
    couriers: new Map(couriers.map((c) => [c.id, c.name])),
    profiles: new Map(profiles.items.map((p) => [p.id, p.name])),
  };
  const series = seriesOf(view.items, by, names);
  const periods = periodsBetween(view.from, view.to, view.groupBy);
  const figures = summarise(view.items, series, by, periods);
  const noun = dimensionLabel[by].toLowerCase();
  const per = perPeriod[view.groupBy];
  const link = (path: string) => withAccount(path, account.id);

  const intro = (
    <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-slate-600">
        <span className="font-medium text-slate-900">
          {longDay(view.from)} – {longDay(view.to)}
        </span>
        , {per}. Days are counted in <strong className="font-medium text-slate-900">{view.timeZone}</strong>, the
        account&apos;s time zone (
        <Link className={linkClass} href={link("/dashboard/settings")}>
          change it in Settings
        </Link>
        ).
      </p>
      {view.items.length > 0 ? (
        <Button
          variant="secondary"
          onClick={() => downloadText(statisticsCsv(view), `statistics-${view.from}-${view.to}.csv`)}
        >
          <Download aria-hidden className="size-4" />
          Download CSV
        </Button>
      ) : null}
    </div>
  );

  if (view.items.length === 0) {
    return (
      <>
        {intro}
        <EmptyState
          icon={ChartColumn}
          title="No orders, refusals or validations in this period"
          action={
            <Button asChild variant="secondary">
              <Link href={link("/dashboard/orders/new")}>Create an order</Link>
            </Button>
          }
        >
          Choose a longer period or remove a filter. Orders sent through the API or created here are counted as they
          come in.
        </EmptyState>
      </>
    );
  }

  const { totals } = figures;
  const createdSeries = series.filter((s) => figures.created.some((row) => Number(row[s.id]) > 0));
  const createdRows = figures.created.filter((row) => createdSeries.some((s) => Number(row[s.id]) > 0));
  const deliveryRows = figures.deliveries.filter((row) => Number(row.delivered) + Number(row.returned) > 0);
  const refusalRate = rate(totals.refused, totals.created + totals.refused);
  const errorRate = rate(totals.errors, totals.validations);

  return (
    <>
      {intro}
      <div className="space-y-6">
        <section aria-labelledby="statistics-totals">
          <h2 id="statistics-totals" className="sr-only">
            Totals
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {[
              { label: "Created", value: totals.created, note: "orders" },
              {
                label: "Refused",
                value: totals.refused,
                note: refusalRate === null ? "by the courier" : `${formatRate(refusalRate)} of attempts`,
              },
              {
                label: "Validation errors",
                value: totals.errors,
                note:
                  errorRate === null
                    ? "no validations"
                    : `${formatRate(errorRate)} of ${formatCount(totals.validations)} validations`,
              },
              { label: "Delivered", value: totals.delivered, note: "orders" },
              { label: "Returned", value: totals.returned, note: "orders" },
            ].map((card) => (
              <div key={card.label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <dt className="text-sm font-medium text-slate-600">{card.label}</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{formatCount(card.value)}</dd>
                <dd className="text-xs text-slate-600">{card.note}</dd>
              </div>
            ))}
          </dl>
        </section>

        <Panel
          id="statistics-created"
          title={`Orders created ${per}`}
          description={`Each bar is split by ${noun}. Periods without orders are left out of the table.`}
        >
          {createdSeries.length === 0 ? (
            nothing("No orders were created in this period.")
          ) : (
            <>
              <PeriodBarChart
                label={`Bar chart of the orders created ${per}, stacked by ${noun}. The table below lists the same figures.`}
                rows={figures.created}
                bars={createdSeries}
                groupBy={view.groupBy}
                stacked
              />
              <Table aria-label={`Orders created ${per} by ${noun}`}>
                <THead>
                  <tr>
                    <Th>{view.groupBy === "day" ? "Day" : view.groupBy === "week" ? "Week" : "Month"}</Th>
                    {createdSeries.map((s) => (
                      <Th key={s.id} className="text-right">
                        <span className="inline-flex items-center gap-1.5 normal-case">
                          <span aria-hidden className="size-2.5 rounded-sm" style={{ backgroundColor: s.color }} />
                          {s.label}
                        </span>
                      </Th>
                    ))}
                    <Th className="text-right">Total</Th>
                  </tr>
                </THead>
                <TBody>
                  {createdRows.map((row) => (
                    <Tr key={row.period}>
                      <Td className="font-medium whitespace-nowrap text-slate-900">
                        {longPeriod(row.period, view.groupBy)}
                      </Td>
                      {createdSeries.map((s) => (
                        <Td key={s.id} label={s.label} className="tabular-nums sm:text-right">
                          {formatCount(Number(row[s.id]))}
                        </Td>
                      ))}
                      <Td label="Total" className="font-medium tabular-nums sm:text-right">
                        {formatCount(createdSeries.reduce((sum, s) => sum + Number(row[s.id]), 0))}
                      </Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            </>
          )}
        </Panel>

        <Panel
          id="statistics-rates"
          title={`Refusals and validation errors by ${noun}`}
          description="Refusal rate: refused ÷ (created + refused). Validation error rate: validations with errors ÷ all validations."
        >
          <Table aria-label={`Refusal and validation error rates by ${noun}`}>
            <THead>
              <tr>
                <Th>{dimensionLabel[by]}</Th>
                <Th className="text-right">Created</Th>
                <Th className="text-right">Refused</Th>
                <Th>Refusal rate</Th>
                <Th className="text-right">Validations</Th>
                <Th className="text-right">Errors</Th>
                <Th>Error rate</Th>
              </tr>
            </THead>
            <TBody>
              {figures.byKey.map((f) => (
                <Tr key={f.series.key}>
                  <Td
                    className={cn(
                      "font-medium [overflow-wrap:anywhere] text-slate-900 sm:min-w-48",
                      by === "sourcePair" && "font-mono text-xs",
                    )}
                  >
                    {f.series.label}
                  </Td>
                  <Td label="Created" className="tabular-nums sm:text-right">
                    {formatCount(f.created)}
                  </Td>
                  <Td label="Refused" className="tabular-nums sm:text-right">
                    {formatCount(f.refused)}
                  </Td>
                  <Td label="Refusal rate">
                    <RateBar value={rate(f.refused, f.created + f.refused)} tone="bg-amber-600" />
                  </Td>
                  <Td label="Validations" className="tabular-nums sm:text-right">
                    {formatCount(f.validations)}
                  </Td>
                  <Td label="Errors" className="tabular-nums sm:text-right">
                    {formatCount(f.errors)}
                  </Td>
                  <Td label="Error rate">
                    <RateBar value={rate(f.errors, f.validations)} tone="bg-red-600" />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </Panel>

        <div className="grid gap-6 lg:grid-cols-3">
          <Panel
            className="lg:col-span-2"
            id="statistics-deliveries"
            title={`Delivered and returned ${per}`}
            description="Orders by the day the courier reported them delivered or returned."
          >
            {deliveryRows.length === 0 ? (
              nothing("No order was delivered or returned in this period.")
            ) : (
              <>
                <PeriodBarChart
                  label={`Bar chart of the orders delivered and returned ${per}. The table below lists the same figures.`}
                  rows={figures.deliveries}
                  bars={[
                    { id: "delivered", label: "Delivered", color: "#059669" },
                    { id: "returned", label: "Returned", color: "#e11d48" },
                  ]}
                  groupBy={view.groupBy}
                  stacked={false}
                />
                <Table aria-label={`Orders delivered and returned ${per}`}>
                  <THead>
                    <tr>
                      <Th>{view.groupBy === "day" ? "Day" : view.groupBy === "week" ? "Week" : "Month"}</Th>
                      <Th className="text-right">Delivered</Th>
                      <Th className="text-right">Returned</Th>
                    </tr>
                  </THead>
                  <TBody>
                    {deliveryRows.map((row) => (
                      <Tr key={row.period}>
                        <Td className="font-medium whitespace-nowrap text-slate-900">
                          {longPeriod(row.period, view.groupBy)}
                        </Td>
                        <Td label="Delivered" className="tabular-nums sm:text-right">
                          {formatCount(Number(row.delivered))}
                        </Td>
                        <Td label="Returned" className="tabular-nums sm:text-right">
                          {formatCount(Number(row.returned))}
                        </Td>
                      </Tr>
                    ))}
                  </TBody>
                </Table>
              </>
            )}
          </Panel>

          <Panel
            id="statistics-cod"
            title="Cash on delivery"
            description="The COD amounts of the orders created in the period that are still live (a replaced or deleted order no longer counts), per currency."
          >
            {figures.cod.length === 0 ? (
              nothing("No order with cash on delivery in this period.")
            ) : (
              <Table aria-label="Cash on delivery by currency">
                <THead>
                  <tr>
                    <Th>Currency</Th>
                    <Th className="text-right">Total</Th>
                  </tr>
                </THead>
                <TBody>
                  {figures.cod.map(([currency, amount]) => (
                    <Tr key={currency}>
                      <Td className="font-mono font-medium text-slate-900">{currency}</Td>
                      <Td label="Total" className="text-base font-semibold text-slate-900 tabular-nums sm:text-right">
                        {formatMoney(amount, currency)}
                      </Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            )}
          </Panel>
        </div>
      </div>
    </>
  );
}

/** A percentage with a bar drawn to scale (the bar is decoration: the number is what is read). */
function RateBar({ value, tone }: { value: number | null; tone: string }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span className="w-12 text-slate-900 tabular-nums sm:text-right">{formatRate(value)}</span>
      <span aria-hidden className="h-2 w-20 overflow-hidden rounded-full bg-slate-100 sm:w-14">
        <span
          className={cn("block h-full rounded-full", tone)}
          style={{ width: `${Math.min(100, Math.round((value ?? 0) * 100))}%` }}
        />
      </span>
    </span>
  );
}
