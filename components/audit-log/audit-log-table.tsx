"use client";

import { ScrollText } from "lucide-react";
import { formatTime, inZone } from "@/lib/format-time";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { cn } from "@/lib/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { searchOf } from "@/lib/search-params";
import { useSearchNavigation } from "@/lib/use-search-navigation";
import { api } from "@/trpc/react";
import { auditActionLabel, describeDetails } from "@/lib/audit-actions";

export function AuditLogTable({ accountId, page }: { accountId: string; page: number }) {
  const [events] = api.auditEvents.list.useSuspenseQuery({ accountId, page });
  const { navigate, isPending } = useSearchNavigation();
  const zone = useTimeZone(accountId);

  if (events.itemsCount === 0) {
    return (
      <EmptyState icon={ScrollText} title="Nothing recorded yet">
        Changes to API keys, sources and courier profiles, and sign-ins, are recorded here with who made them and from
        where.
      </EmptyState>
    );
  }
  return (
    <div aria-busy={isPending} className={cn("transition-opacity", isPending && "opacity-60")}>
      <Table aria-label="Audit events">
        <THead>
          <tr>
            <Th>{inZone("Time", zone)}</Th>
            <Th>Action</Th>
            <Th>By</Th>
            <Th>Details</Th>
            <Th>From</Th>
          </tr>
        </THead>
        <TBody>
          {events.items.map((event) => (
            <Tr key={event.id}>
              <Td label="Time" className="whitespace-nowrap">
                {formatTime(event.created, zone)}
              </Td>
              <Td>
                <span className="block font-medium whitespace-nowrap text-slate-900">
                  {auditActionLabel[event.action] ?? event.action}
                </span>
                <code className="block font-mono text-xs text-slate-500">{event.action}</code>
              </Td>
              <Td label="By" className="whitespace-nowrap">
                {event.actor ?? <span className="text-slate-500">Removed user</span>}
              </Td>
              <Td label="Details" className="max-w-md text-xs break-words sm:min-w-64">
                {describeDetails(event.details) || <span className="text-slate-500">—</span>}
              </Td>
              <Td label="From" className="font-mono text-xs whitespace-nowrap">
                {event.ip ?? <span className="text-slate-500">—</span>}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <Pager
        label="Audit log pages"
        envelope={events}
        onPage={(next) => navigate(searchOf({ page: next > 1 ? next : undefined }))}
      />
    </div>
  );
}
