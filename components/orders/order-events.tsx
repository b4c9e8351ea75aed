"use client";

import { formatTime } from "@/lib/format-time";
import { Badge } from "@/components/ui/badge";
import { deliveryTone, eventTypeLabels } from "@/lib/event-types";
import { api } from "@/trpc/react";
import { shortId } from "@/lib/short-id";

/**
 * The order's events (what its webhooks and the feed carried), newest first, each with its deliveries. Times are in
 * `timeZone`, which the order's page names once.
 */
export function OrderEvents({
  accountId,
  orderId,
  timeZone,
}: {
  accountId: string;
  orderId: string;
  timeZone: string;
}) {
  const events = api.webhooks.orderEvents.useQuery({ accountId, orderId }, { refetchInterval: 10_000 });
  return (
    <section aria-labelledby="order-events-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="order-events-title" className="text-base font-semibold text-slate-900">
        Events and webhook deliveries
      </h2>
      {!events.data ? (
        <p className="mt-3 text-sm text-slate-500">{events.isError ? events.error.message : "Loading…"}</p>
      ) : events.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No events recorded for this order.</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100">
          {events.data.map((event) => (
            <li key={event.id} className="py-3">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <Badge tone="blue">{eventTypeLabels[event.type] ?? event.type}</Badge>
                {"previousStatus" in event.data ? (
                  <span className="text-slate-600">
                    {event.data.previousStatus} → {event.data.shippingOrder.status}
                  </span>
                ) : null}
                {"reason" in event.data ? <span className="text-slate-600">{event.data.reason}</span> : null}
                <span className="text-slate-500">{formatTime(event.created, timeZone)}</span>
                <span className="font-mono text-xs text-slate-500">{shortId(event.id)}</span>
              </div>
              {event.deliveries.length === 0 ? (
                <p className="mt-1 text-xs text-slate-500">No webhook endpoint took this event.</p>
              ) : (
                <ul className="mt-2 space-y-1">
                  {event.deliveries.map((d) => (
                    <li key={d.id} className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                      <Badge tone={deliveryTone[d.status]}>{d.status}</Badge>
                      <span className="font-mono break-all">{d.endpointUrl}</span>
                      <span>
                        {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                        {d.responseStatus ? `, last answer ${d.responseStatus} in ${d.durationMs} ms` : ""}
                        {d.lastError ? `, ${d.lastError}` : ""}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
