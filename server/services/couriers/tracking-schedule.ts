import type { ShippingStatus } from "@/lib/shipping-status";
import type { CourierAdapter, TrackingResult } from "@/server/couriers/adapter";

export const FINAL_STATUSES: readonly ShippingStatus[] = ["DELIVERED", "RETURNED", "CANCELLED"];

const MINUTE = 60_000;
/** The shortest wait between two polls of one shipment, and the longest while it moves or waits to be handed over. */
export const MIN_POLL_MS = MINUTE;
const MAX_POLL_MOVING_MS = 30 * MINUTE;
const MAX_POLL_WAITING_MS = 2 * 60 * MINUTE;
const MAX_POLL_FAILING_MS = 60 * MINUTE;

/** What an order starts with once its courier registered it: the adapter's first step, else CREATED and a poll soon. */
export function firstTracking(courier: CourierAdapter, settings: Record<string, unknown>, now: Date): TrackingResult {
  return (
    courier.initialTracking?.(now, settings) ?? {
      events: [
        {
          time: now,
          status: "CREATED",
          description: `Shipment registered with ${courier.capabilities.name}`,
          location: null,
        },
      ],
      nextCheckAt: new Date(now.getTime() + MIN_POLL_MS),
    }
  );
}

/**
 * When to poll a shipment again. Final states stop polling; the adapter's own answer wins (the sandbox's next
 * step); otherwise the wait grows with the time the shipment has sat in its state (a quarter of it), from one
 * minute up to 30 minutes while it moves (handed over, in transit, out for delivery) and two hours while it
 * waits to be handed over. So a parcel is seen soon after each move, and a parcel lying in a depot costs few calls.
 */
export function nextPoll(
  status: ShippingStatus,
  result: TrackingResult | null,
  lastChange: Date,
  now: Date,
): Date | null {
  if (FINAL_STATUSES.includes(status)) return null;
  if (result?.nextCheckAt) return result.nextCheckAt;
  const max = status === "CREATED" ? MAX_POLL_WAITING_MS : MAX_POLL_MOVING_MS;
  const wait = Math.min(max, Math.max(MIN_POLL_MS, (now.getTime() - lastChange.getTime()) / 4));
  return new Date(now.getTime() + wait);
}

/** After a failed poll: one minute, doubling with each failure in a row, at most an hour. */
export const retryPoll = (failures: number, now: Date): Date =>
  new Date(now.getTime() + Math.min(MAX_POLL_FAILING_MS, MIN_POLL_MS * 2 ** Math.max(0, failures - 1)));
