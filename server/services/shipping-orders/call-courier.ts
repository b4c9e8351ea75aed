import type { Executor } from "@/db/client";
import {
  CourierRejection,
  type CourierAdapter,
  type CourierShipment,
  type CourierShipmentRequest,
} from "@/server/couriers/types";
import { isDatabaseUnavailable } from "@/db/connection-errors";
import { logger } from "@/server/observability/logger";
import { recordCourierCall } from "@/server/observability/outbound-calls";

export type CourierOutcome = { ok: true; shipment: CourierShipment } | { ok: false; code: string; message: string };

class CourierTimeout extends Error {}

/**
 * Asks the courier for a shipment within the profile's timeout. A refusal or a missing answer is an
 * outcome (reported in `failed`), not an error; only a database outage propagates.
 */
export async function callCourier(
  courier: CourierAdapter,
  request: CourierShipmentRequest,
  db: Executor,
  settings: Record<string, unknown>,
): Promise<CourierOutcome> {
  const started = performance.now();
  const outcome = await createWithin(courier, request, db, settings);
  recordCourierCall({
    courier: courier.capabilities.id,
    operation: "create",
    outcome: outcome.ok ? "ok" : outcome.code,
    durationMs: performance.now() - started,
  });
  return outcome;
}

async function createWithin(
  courier: CourierAdapter,
  request: CourierShipmentRequest,
  db: Executor,
  settings: Record<string, unknown>,
): Promise<CourierOutcome> {
  const controller = new AbortController();
  const timeoutMs = courier.timeoutMs(settings);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new CourierTimeout(`no answer within ${timeoutMs} ms`);
      controller.abort(reason);
      reject(reason);
    }, timeoutMs);
  });
  let pending: Promise<CourierShipment> | undefined;
  try {
    pending = courier.createShipment(request, { db, settings, signal: controller.signal });
    const shipment = await Promise.race([pending, timeout]);
    return { ok: true, shipment };
  } catch (error) {
    if (error instanceof CourierRejection) return { ok: false, code: error.code, message: error.message };
    if (error instanceof CourierTimeout) {
      // A courier may still book the shipment after we stopped waiting; no order will ever show it, so cancel it.
      pending?.then((late) => cancelQuietly(courier, [late.shippingNumbers], db, settings)).catch(() => {});
      return {
        ok: false,
        code: "COURIER_TIMEOUT",
        message: `${courier.capabilities.name} did not answer within ${timeoutMs / 1000} s.`,
      };
    }
    if (isDatabaseUnavailable(error)) throw error;
    logger.error({ courier: courier.capabilities.id, err: String(error) }, "courier call failed");
    return { ok: false, code: "COURIER_UNAVAILABLE", message: `${courier.capabilities.name} could not be reached.` };
  } finally {
    clearTimeout(timer);
  }
}

/** Cancels shipments that will not be kept; failures are logged, never thrown (the caller is already failing or done). */
export async function cancelQuietly(
  courier: CourierAdapter,
  shippingNumbers: string[][],
  db: Executor,
  settings: Record<string, unknown>,
): Promise<void> {
  await Promise.all(
    shippingNumbers.map(async (numbers) => {
      try {
        await courier.cancelShipment(numbers, {
          db,
          settings,
          signal: AbortSignal.timeout(courier.timeoutMs(settings)),
        });
      } catch (error) {
        console.error(
          JSON.stringify({
            level: "error",
            msg: "courier cancel failed",
            courier: courier.capabilities.id,
            shippingNumbers: numbers,
            error: String(error),
          }),
        );
      }
    }),
  );
}
