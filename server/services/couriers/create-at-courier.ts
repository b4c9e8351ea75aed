import type { Executor } from "@/db/client";
import { CourierError, type CourierAdapter, type CreateOutcome, type ShipmentRequest } from "@/server/couriers/adapter";
import { mapLimit } from "@/server/concurrency";
import { logger } from "@/server/observability/logger";
import { uniqueReferenceBatches } from "@/server/couriers/unique-batches";
import { callCourier } from "./call-courier";

/**
 * Registers a request's shipments with one profile's courier: in calls of the adapter's batch size (PPL: one
 * batch for all), at most `maxInFlightPerProfile` calls at once, never inside a database transaction. One outcome
 * per request, in order; a call that fails as a whole (credentials, unreachable, no answer in time) gives each of
 * its orders that outcome. Shipments a courier registers after the platform stopped waiting are cancelled.
 */
export async function createAtCourier(
  db: Executor,
  courier: CourierAdapter,
  settings: Record<string, unknown>,
  requests: ShipmentRequest[],
): Promise<CreateOutcome[]> {
  const size = Math.max(1, courier.limits.createBatchSize);
  // Index slices of the requests: consecutive, or (a courier that takes each reference once per call, PPL) as few
  // calls as the batch size allows with each reference once in each.
  const slices = courier.limits.uniqueReferencePerCall
    ? uniqueReferenceBatches(
        requests.map((r) => r.referenceNumber),
        size,
      )
    : Array.from({ length: Math.ceil(requests.length / size) }, (_, c) =>
        requests.slice(c * size, (c + 1) * size).map((_r, i) => c * size + i),
      );
  const results = await mapLimit(slices, courier.limits.maxInFlightPerProfile, async (indexes) => {
    const chunk = indexes.map((i) => requests[i]!);
    try {
      const outcomes = await callCourier(
        db,
        courier,
        "create",
        settings,
        (ctx) => courier.createShipments(chunk, settings, ctx),
        { onLateResult: (late) => void cancelShipments(db, courier, settings, late) },
      );
      if (outcomes.length !== chunk.length) throw new Error(`${outcomes.length} outcomes for ${chunk.length} orders`);
      return outcomes;
    } catch (error) {
      const e =
        error instanceof CourierError
          ? error
          : new CourierError("COURIER_UNAVAILABLE", `${courier.capabilities.name} could not be reached.`);
      const code = e.code === "COURIER_CANNOT_CANCEL" ? "COURIER_UNAVAILABLE" : e.code;
      return chunk.map((): CreateOutcome => ({
        ok: false,
        code,
        message: e.message,
        field: e.field,
        ...(e.outcomeUnknown ? { outcomeUnknown: true as const } : {}),
      }));
    }
  });
  const outcomes: CreateOutcome[] = [];
  slices.forEach((indexes, c) => indexes.forEach((index, i) => (outcomes[index] = results[c]![i]!)));
  return outcomes;
}

/**
 * Cancels shipments that will not be kept (a late answer, a create that failed after the courier answered).
 * Returns whether every cancel went through; failures are logged, never thrown (the caller is already failing).
 */
export async function cancelShipments(
  db: Executor,
  courier: CourierAdapter,
  settings: Record<string, unknown>,
  outcomes: readonly CreateOutcome[],
): Promise<boolean> {
  const made = outcomes.filter((o): o is Extract<CreateOutcome, { ok: true }> => o.ok);
  const done = await mapLimit(made, courier.limits.maxInFlightPerProfile, async (shipment) => {
    try {
      await callCourier(db, courier, "cancel", settings, (ctx) =>
        courier.cancelShipment({ ...shipment, createdAt: new Date() }, settings, ctx),
      );
      return true;
    } catch (error) {
      logger.error(
        { courier: courier.capabilities.id, shippingNumbers: shipment.shippingNumbers, err: String(error) },
        "courier cancel failed",
      );
      return false;
    }
  });
  return done.every(Boolean);
}
