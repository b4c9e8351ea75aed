"use client";

import { useState, useTransition } from "react";
import { toast } from "sonner";
import { formatTime } from "@/lib/format-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Pager } from "@/components/ui/pager";
import { Spinner } from "@/components/ui/spinner";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { api } from "@/trpc/react";
import { deliveryTone, eventTypeLabels } from "@/lib/event-types";
import { shortId } from "@/lib/short-id";

type Filter = "all" | "pending" | "succeeded" | "failed";

/** An endpoint's deliveries, newest first; their times are in `timeZone` (the account's), said once above the table. */
export function DeliveryLog({
  endpointId,
  writable,
  timeZone,
}: {
  endpointId: string;
  writable: boolean;
  timeZone: string;
}) {
  const [filter, setFilter] = useState<Filter>("all");
  const [page, setPage] = useState(1);
  const [, startTransition] = useTransition();
  const utils = api.useUtils();
  const deliveries = api.webhooks.deliveries.useQuery(
    { id: endpointId, page, status: filter === "all" ? undefined : filter },
    { refetchInterval: 5000 },
  );
  const resend = api.webhooks.resend.useMutation({
    onSuccess: async () => {
      toast.success("Delivery queued again");
      await utils.webhooks.deliveries.invalidate({ id: endpointId });
    },
    onError: (error) => toast.error(error.message),
  });

  return (
    <div className="space-y-3">
      <Tabs
        value={filter}
        onValueChange={(value) => {
          setFilter(value as Filter);
          setPage(1);
        }}
      >
        <TabsList aria-label="Delivery status">
          {(["all", "pending", "succeeded", "failed"] as const).map((f) => (
            <TabsTrigger key={f} value={f} className="capitalize">
              {f}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {deliveries.isPending ? (
        <Spinner />
      ) : !deliveries.data || deliveries.data.itemsCount === 0 ? (
        <p className="text-sm text-slate-500">No deliveries{filter === "all" ? " yet" : ` ${filter}`}.</p>
      ) : (
        <>
          <p className="text-xs text-slate-500">Times are in {timeZone}.</p>
          <Table>
            <THead>
              <tr>
                <Th>Event</Th>
                <Th>Status</Th>
                <Th>Attempts</Th>
                <Th>Answer</Th>
                <Th>Created</Th>
                <Th>Next attempt</Th>
                {writable ? (
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                ) : null}
              </tr>
            </THead>
            <TBody>
              {deliveries.data.items.map((d) => (
                <Tr key={d.id}>
                  <Td>
                    <span className="block">{eventTypeLabels[d.eventType] ?? d.eventType}</span>
                    <span className="block font-mono text-xs text-slate-500">{shortId(d.eventId)}</span>
                  </Td>
                  <Td label="Status">
                    <Badge tone={deliveryTone[d.status]}>{d.status}</Badge>
                  </Td>
                  <Td label="Attempts" className="tabular-nums">
                    {d.attempts}
                  </Td>
                  <Td label="Answer" className="sm:max-w-56 sm:break-words">
                    {d.responseStatus ? (
                      <span className="tabular-nums">
                        {d.responseStatus} · {d.durationMs} ms
                      </span>
                    ) : (
                      <span className="text-slate-500">{d.lastError ?? "—"}</span>
                    )}
                  </Td>
                  <Td label="Created" className="whitespace-nowrap">
                    {formatTime(d.created, timeZone)}
                  </Td>
                  <Td label="Next attempt" className="whitespace-nowrap">
                    {d.nextAttempt ? formatTime(d.nextAttempt, timeZone) : "—"}
                  </Td>
                  {writable ? (
                    <Td className="text-right max-sm:pt-2 max-sm:text-left">
                      <Button
                        variant="secondary"
                        size="sm"
                        disabled={resend.isPending}
                        onClick={() => resend.mutate({ id: d.id })}
                        aria-label={`Resend delivery ${d.id}`}
                      >
                        Resend
                      </Button>
                    </Td>
                  ) : null}
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pager
            label="Delivery pages"
            envelope={deliveries.data}
            onPage={(next) => startTransition(() => setPage(next))}
          />
        </>
      )}
    </div>
  );
}
