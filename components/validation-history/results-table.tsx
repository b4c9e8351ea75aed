"use client";

import { History, SearchX } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { canWrite, withAccount, type AccountChoice } from "@/lib/account";
import { formatTime, inZone, UTC } from "@/lib/format-time";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { ValidationStatusBadge } from "@/components/validation-report/validation-status-badge";
import { api } from "@/trpc/react";
import { ResultDialog } from "./result-dialog";
import { ALL_ACCOUNTS, resultFilters, resultListInput, type ResultFilters } from "@/lib/validation-result-filters";

export function ResultsTable({ account, filters }: { account: AccountChoice; filters: ResultFilters }) {
  const input = resultListInput(account, filters);
  const [results] = api.validationResults.list.useSuspenseQuery(input);
  // One account's results are in its zone; staff's list of every account (zones of their own) is in UTC.
  const accountZone = useTimeZone(input.accountId ?? account.id);
  const zone = input.accountId === undefined ? UTC : accountZone;
  const [open, setOpen] = useState<string | null>(null);
  const { navigate, isPending } = useSearchNavigation();
  // Staff looking at every account need to see whose result each row is.
  const showAccount = account.role === "staff" && filters.filterAccount === ALL_ACCOUNTS;

  if (results.itemsCount === 0) {
    return resultFilters.isFiltered(filters) ? (
      <EmptyState
        icon={SearchX}
        title="No validation results match these filters"
        action={
          <Button variant="secondary" onClick={() => navigate(new URLSearchParams())}>
            Clear filters
          </Button>
        }
      >
        Widen the date range or remove a filter.
      </EmptyState>
    ) : (
      <EmptyState
        icon={History}
        title="No validations yet"
        action={
          <Button asChild variant="secondary">
            <Link href={withAccount("/dashboard/validate", account.id)}>Validate an order</Link>
          </Button>
        }
      >
        Every order validated through the API or here, and every order checked while being created, is listed with its
        messages.
      </EmptyState>
    );
  }

  return (
    <div aria-busy={isPending} className={cn("transition-opacity", isPending && "opacity-60")}>
      <p className="mb-2 text-sm text-slate-600">
        {results.itemsCount} {results.itemsCount === 1 ? "result" : "results"}
      </p>
      <Table aria-label="Validation results">
        <THead>
          <tr>
            <Th>{inZone("Time", zone)}</Th>
            {showAccount ? <Th>Account</Th> : null}
            <Th>Reference</Th>
            <Th>Operation</Th>
            <Th>Courier</Th>
            <Th>Status</Th>
            <Th>Messages</Th>
            <Th>
              <span className="sr-only">Details</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {results.items.map((r) => (
            <Tr key={r.id}>
              <Td label="Time" className="whitespace-nowrap">
                {formatTime(r.created, zone)}
              </Td>
              {showAccount ? <Td label="Account">{r.accountName}</Td> : null}
              <Td label="Reference" className="font-medium break-all text-slate-900">
                {r.referenceNumber ?? <span className="font-normal text-slate-500">None</span>}
              </Td>
              <Td label="Operation">{r.operation === "create" ? "Create" : "Validate"}</Td>
              <Td label="Courier">{r.courierName}</Td>
              <Td label="Status">
                <ValidationStatusBadge status={r.status} refused={r.refusal !== null} />
              </Td>
              <Td label="Messages" className="whitespace-nowrap">
                {r.refusal ? (
                  <span className="text-red-700">Refused by the courier</span>
                ) : r.errors + r.warnings === 0 ? (
                  <span className="text-slate-500">None</span>
                ) : (
                  <>
                    {r.errors ? (
                      <span className="text-red-700">
                        {r.errors} {r.errors === 1 ? "error" : "errors"}
                      </span>
                    ) : null}
                    {r.errors && r.warnings ? ", " : null}
                    {r.warnings ? (
                      <span className="text-amber-800">
                        {r.warnings} {r.warnings === 1 ? "warning" : "warnings"}
                      </span>
                    ) : null}
                  </>
                )}
              </Td>
              <Td className="sm:text-right">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setOpen(r.id)}
                  aria-label={`View validation of ${r.referenceNumber ?? "an order without reference"} at ${formatTime(r.created, zone)}`}
                >
                  View
                </Button>
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <Pager
        label="Validation result pages"
        envelope={results}
        onPage={(page) => navigate(resultFilters.search({ ...filters, page }))}
      />
      <ResultDialog
        id={open}
        showAccount={account.role === "staff"}
        timeZone={zone}
        canEdit={canWrite(account)}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}
