import { ExternalLink } from "lucide-react";
import { formatTime } from "@/lib/format-time";
import type { ShippingOrderView } from "@/server/services/shipping-orders/shipping-order-view";
import { StatusBadge } from "./status-badge";

/**
 * The courier's tracking events, latest first, with the courier's own tracking page when it has one. Times are in
 * `timeZone`, which the order's page names once.
 */
export function TrackingTimeline({
  tracking,
  timeZone,
}: {
  tracking: ShippingOrderView["shipmentTracking"];
  timeZone: string;
}) {
  const events = [...tracking.events].reverse();
  return (
    <section aria-labelledby="tracking-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="tracking-title" className="text-base font-semibold text-slate-900">
          Tracking
        </h2>
        {tracking.trackingUrl ? (
          <a
            href={tracking.trackingUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-sm text-blue-700 underline"
          >
            Track on the courier&apos;s site
            <ExternalLink aria-hidden className="size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : null}
      </div>
      {tracking.updated ? (
        <p className="mt-1 text-xs text-slate-500">Last update {formatTime(tracking.updated, timeZone)}</p>
      ) : null}
      {events.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">
          No tracking events yet: the courier reports the first one once it has the shipment data.
        </p>
      ) : (
        <ol aria-label="Tracking events, latest first" className="mt-4 space-y-0">
          {events.map((event, i) => (
            // Time, status and text: what makes an event unique (a courier may report two in one second).
            <li
              key={`${event.time}-${event.status}-${event.description}`}
              className="relative flex gap-3 pb-5 last:pb-0"
            >
              {i < events.length - 1 ? (
                <span aria-hidden className="absolute top-3 left-[5px] h-full w-px bg-slate-200" />
              ) : null}
              <span
                aria-hidden
                className={`relative mt-1.5 size-[11px] shrink-0 rounded-full ring-2 ring-white ${i === 0 ? "bg-blue-600" : "bg-slate-300"}`}
              />
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={event.status} />
                  <time dateTime={`${event.time}Z`} className="text-xs text-slate-500">
                    {formatTime(event.time, timeZone)}
                  </time>
                </div>
                <p className="mt-1 text-sm text-slate-800">{event.description}</p>
                {event.location ? <p className="text-xs text-slate-500">{event.location}</p> : null}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
