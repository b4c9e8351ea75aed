"use client";

import { ChartColumn } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { withAccount } from "@/lib/account";
import { searchOf } from "@/lib/search-params";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { api } from "@/trpc/react";
import { formatCount, formatMoney, formatRate, rate } from "./format";
import { dayRange } from "./period";
import { DEFAULT_PERIOD, PRESET_PERIODS, type PresetPeriod } from "./statistics-params";
import { ToggleGroup } from "./toggle-group";

/** Staff's period: the last 7, 30 or 90 days, in the URL as on the account's page. */
export function StaffPeriodPicker({ period }: { period: PresetPeriod }) {
  const { navigate, isPending } = useSearchNavigation();
  const [target, setTarget] = useState<PresetPeriod | null>(null);
  return (
    <div className="mb-6">
      <ToggleGroup
        label="Period"
        options={PRESET_PERIODS.map((p) => ({ value: p, label: `${p} days` }))}
        value={period}
        pending={isPending ? target : null}
        onChange={(value) => {
          if (value === period) return;
          setTarget(value);
          navigate(searchOf({ period: value === DEFAULT_PERIOD ? undefined : value }));
        }}
      />
    </div>
  );
}

const linkClass = "font-medium break-words text-blue-700 underline-offset-2 hover:underline";

/** Every account's figures over the period, the accounts refused or failing validation most on top. */
export function StaffStatistics({ days }: { days: number }) {
  const [data] = api.statistics.byAccount.useSuspenseQuery({ days });
  const period = (
    <p className="mb-3 text-sm text-slate-600">
      <span className="font-medium text-slate-900">The last {days} days of each account</span>, today included, counted
      in the account&apos;s own time zone.
    </p>
  );
  if (data.accounts.length === 0) {
    return (
      <>
        {period}
        <EmptyState icon={ChartColumn} title="No orders, refusals or validations in this period">
          No account created, refused or validated an order in these days.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {period}
      <Table aria-label="Statistics by account">
        <THead>
          <tr>
            <Th>Account</Th>
            <Th className="text-right">Refused</Th>
            <Th className="text-right">Validation errors</Th>
            <Th className="text-right">Created</Th>
            <Th className="text-right">Delivered</Th>
            <Th className="text-right">Returned</Th>
            <Th>Cash on delivery</Th>
          </tr>
        </THead>
        <TBody>
          {data.accounts.map(({ accountId, accountName, timeZone, from, to, figures: f }) => {
            const validations = f.validations.ok + f.validations.warning + f.validations.error;
            return (
              <Tr key={accountId}>
                <Td>
                  <Link className={linkClass} href={withAccount("/dashboard/statistics", accountId)}>
                    {accountName}
                  </Link>
                  <span className="block text-xs text-slate-600">
                    {timeZone} · <span className="whitespace-nowrap">{dayRange(from, to)}</span>
                  </span>
                </Td>
                <Td label="Refused" className="tabular-nums sm:text-right">
                  {formatCount(f.refused)}{" "}
                  <span className="text-xs text-slate-600">({formatRate(rate(f.refused, f.created + f.refused))})</span>
                </Td>
                <Td label="Validation errors" className="tabular-nums sm:text-right">
                  {formatCount(f.validations.error)}{" "}
                  <span className="text-xs text-slate-600">({formatRate(rate(f.validations.error, validations))})</span>
                </Td>
                <Td label="Created" className="tabular-nums sm:text-right">
                  {formatCount(f.created)}
                </Td>
                <Td label="Delivered" className="tabular-nums sm:text-right">
                  {formatCount(f.delivered)}
                </Td>
                <Td label="Returned" className="tabular-nums sm:text-right">
                  {formatCount(f.returned)}
                </Td>
                <Td label="Cash on delivery" className="tabular-nums">
                  {f.cod.length === 0 ? (
                    <span className="text-slate-500">—</span>
                  ) : (
                    <span className="flex flex-col">
                      {f.cod.map((c) => (
                        <span key={c.currency} className="whitespace-nowrap">
                          {formatMoney(c.amount, c.currency)}
                        </span>
                      ))}
                    </span>
                  )}
                </Td>
              </Tr>
            );
          })}
        </TBody>
      </Table>
    </>
  );
}
