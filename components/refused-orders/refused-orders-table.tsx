"use client";

import { PackageCheck, PencilLine, Wand2 } from "lucide-react";
import Link from "next/link";
import { useState, useTransition } from "react";
import { withAccount } from "@/lib/account";
import { formatTime, inZone } from "@/lib/format-time";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { fieldLabel } from "@/lib/order-form/order-paths";
import { suggestionTarget } from "@/lib/order-form/suggestions";
import { suggestionClass } from "@/components/order-form/suggestion-buttons";
import type { RefusedAttemptSummary } from "@/server/services/refused-attempts/list-refused-attempts";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { api } from "@/trpc/react";

/** The fix-and-retry form of an attempt, opened with one field already set to a suggestion's value. */
const fixHref = (accountId: string, attemptId: string, field: string, value: string) =>
  `${withAccount("/dashboard/orders/new", accountId)}&${new URLSearchParams({ refused: attemptId, field, value })}`;

/** Each suggestion of the attempt's validation messages, as a link that opens the order with it applied. */
function SuggestedFixes({ attempt, accountId }: { attempt: RefusedAttemptSummary; accountId: string }) {
  if (attempt.suggestedFixes.length === 0) return null;
  return (
    <span className="flex flex-col gap-1.5 text-xs text-slate-700">
      {attempt.suggestedFixes.map((fix, i) => (
        <span key={i} className="flex flex-col gap-1">
          <span>{fix.message}</span>
          <ul aria-label={`Suggested fixes for ${attempt.referenceNumber}`} className="flex flex-wrap gap-1.5">
            {fix.suggestions.map((suggestion) => {
              const target = suggestionTarget(fix, suggestion);
              if (!target) return null;
              return (
                <li key={suggestion.value}>
                  <Link
                    className={suggestionClass}
                    href={fixHref(accountId, attempt.id, target, suggestion.value)}
                    aria-label={`Fix ${attempt.referenceNumber}: use ${suggestion.text} as ${fieldLabel(target).toLowerCase()}`}
                  >
                    <Wand2 aria-hidden className="size-3.5 shrink-0" />
                    Use {suggestion.text}
                  </Link>
                </li>
              );
            })}
          </ul>
        </span>
      ))}
    </span>
  );
}

const codeLabel: Record<string, string> = {
  COURIER_REJECTED: "Refused",
  COURIER_AUTH_FAILED: "Credentials refused",
  COURIER_TIMEOUT: "No answer",
  COURIER_UNAVAILABLE: "Unreachable",
};

/**
 * Create attempts the courier refused or did not answer, newest first, each open one with the way to fix and send it
 * again; one a later create resolved links to that order instead.
 */
export function RefusedOrdersTable({ accountId, canCreate }: { accountId: string; canCreate: boolean }) {
  const [page, setPage] = useState(1);
  const [isPending, startTransition] = useTransition();
  const [refused] = api.refusedAttempts.list.useSuspenseQuery({ accountId, page });
  const zone = useTimeZone(accountId);

  if (refused.itemsCount === 0) {
    return (
      <EmptyState icon={PackageCheck} title="No refused orders">
        An order the courier refuses or does not answer in time appears here, as it was sent, so it can be fixed and
        sent again.
      </EmptyState>
    );
  }

  return (
    <div aria-busy={isPending} className={cn("transition-opacity", isPending && "opacity-60")}>
      <p className="mb-2 text-sm text-slate-600" aria-live="polite">
        {refused.itemsCount} refused {refused.itemsCount === 1 ? "order" : "orders"}
      </p>
      <Table aria-label="Refused orders">
        <THead>
          <tr>
            <Th>Reference</Th>
            <Th>Outcome</Th>
            <Th>Courier / profile</Th>
            <Th>Source</Th>
            <Th>Sent by</Th>
            <Th>{inZone("Time", zone)}</Th>
            {canCreate ? (
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            ) : null}
          </tr>
        </THead>
        <TBody>
          {refused.items.map((r) => (
            <Tr key={r.id}>
              <Td className="font-medium break-all text-slate-900">{r.referenceNumber}</Td>
              <Td label="Outcome">
                <span className="flex flex-col gap-1 sm:min-w-48">
                  <span className="flex flex-wrap gap-1.5">
                    <Badge tone="red">{codeLabel[r.code] ?? r.code}</Badge>
                    {r.resolvedByOrderId ? <Badge tone="green">Resolved</Badge> : null}
                  </span>
                  {r.resolvedByOrderId ? (
                    <span className="text-xs text-slate-700">
                      Sent again and created as{" "}
                      <Link
                        className="text-blue-700 underline"
                        href={withAccount(`/dashboard/orders/${r.resolvedByOrderId}`, accountId)}
                      >
                        order {r.referenceNumber}
                      </Link>
                      .
                    </span>
                  ) : null}
                  {r.outcomeUnknown ? (
                    <span className="text-xs text-slate-700">
                      <span className="font-medium text-slate-900">Outcome unknown:</span> {r.courierName} had the
                      request and never answered; it may have registered the order.{" "}
                      {r.courier === "ppl"
                        ? "The platform asks PPL within 5 minutes and creates or cancels it; check again before sending it again."
                        : `Check in ${r.courierName}'s client section whether a packet with reference ${r.referenceNumber} exists (cancel it there, or keep it) before sending it again.`}
                    </span>
                  ) : null}
                  <span className="text-xs break-words text-slate-600">{r.message}</span>
                  {r.field ? (
                    <span className="text-xs text-slate-600">
                      Field: <span className="font-medium text-slate-800">{fieldLabel(r.field)}</span>
                      {/* The API's path too, unless the courier's message already says it. */}
                      {fieldLabel(r.field) !== r.field && !r.message.includes(r.field) ? (
                        <>
                          {" "}
                          <code className="rounded bg-slate-100 px-1 font-mono text-[11px] whitespace-nowrap">
                            {r.field}
                          </code>
                        </>
                      ) : null}
                    </span>
                  ) : null}
                  {canCreate && !r.resolvedByOrderId ? <SuggestedFixes attempt={r} accountId={accountId} /> : null}
                </span>
              </Td>
              <Td label="Courier">
                <span className="block">{r.courierName}</span>
                <span className="block text-xs text-slate-600">{r.courierProfileName ?? "Archived profile"}</span>
              </Td>
              <Td label="Source" className="font-mono text-xs">
                {r.referenceSource} / {r.sourceIdentifier}
              </Td>
              <Td label="Sent by">{r.sentBy}</Td>
              <Td label="Time" className="whitespace-nowrap">
                {formatTime(r.created, zone)}
              </Td>
              {canCreate ? (
                <Td className="sm:text-right">
                  {/* A resolved refusal sent again would replace the order that resolved it. */}
                  {r.resolvedByOrderId ? null : (
                    <Button asChild variant="secondary" size="sm">
                      <Link
                        href={`${withAccount("/dashboard/orders/new", accountId)}&refused=${r.id}`}
                        aria-label={`Fix and retry ${r.referenceNumber}`}
                      >
                        <PencilLine aria-hidden className="size-4" />
                        Fix and retry
                      </Link>
                    </Button>
                  )}
                </Td>
              ) : null}
            </Tr>
          ))}
        </TBody>
      </Table>
      <Pager label="Refused order pages" envelope={refused} onPage={(next) => startTransition(() => setPage(next))} />
    </div>
  );
}
