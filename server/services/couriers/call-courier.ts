import type { Executor } from "@/db/client";
import { isDatabaseUnavailable } from "@/db/connection-errors";
import { CourierError, type CallContext, type CourierAdapter, type CourierErrorCode } from "@/server/couriers/adapter";
import { logger } from "@/server/observability/logger";
import { recordCourierCall } from "@/server/observability/outbound-calls";
import { openProfileSettings, type StoredProfile } from "@/server/secrets/profile-settings";
import { allocateNumbers } from "./number-range";

export type CourierOperation = "create" | "cancel" | "label" | "track" | "check" | "find";

/**
 * A profile's stored settings as its adapter takes them (its secrets open for this profile's row and account only): secrets opened, then read through the adapter's schema
 * (defaults applied). Settings stored before a schema change are passed as stored rather than refused.
 */
export function courierSettings(courier: CourierAdapter, profile: StoredProfile): Record<string, unknown> {
  const opened = openProfileSettings(profile, courier.settings.secretFields);
  const parsed = courier.settings.schema.safeParse(opened);
  return parsed.success ? (parsed.data as Record<string, unknown>) : opened;
}

/** Time an adapter that ignores its signal is given after the timeout before the platform stops waiting. */
const GRACE_MS = 1000;

/**
 * Runs one adapter call with the profile's timeout: the adapter gets an `AbortSignal` that fires at the timeout,
 * and the platform stops waiting a moment later whatever the adapter does. Every failure comes back as a
 * `CourierError` (anything unexpected is COURIER_UNAVAILABLE, logged without the settings); a database outage
 * (the sandbox's number range) propagates as itself. Never call this inside a database transaction.
 */
export async function callCourier<T>(
  db: Executor,
  courier: CourierAdapter,
  operation: CourierOperation,
  settings: Record<string, unknown>,
  fn: (ctx: CallContext) => Promise<T>,
  options: { onLateResult?: (late: T) => void } = {},
): Promise<T> {
  const started = performance.now();
  const timeoutMs = courier.timeoutMs(settings);
  const controller = new AbortController();
  const name = courier.capabilities.name;
  const timedOut = () => new CourierError("COURIER_TIMEOUT", `${name} did not answer within ${timeoutMs / 1000} s.`);
  const abortTimer = setTimeout(() => controller.abort(timedOut()), timeoutMs);
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    deadlineTimer = setTimeout(() => reject(timedOut()), timeoutMs + GRACE_MS);
  });
  const ctx: CallContext = {
    signal: controller.signal,
    timeoutMs,
    now: () => new Date(),
    allocateNumbers: (count) => allocateNumbers(db, count),
  };
  let outcome: CourierErrorCode | "ok" = "ok";
  const pending = fn(ctx);
  try {
    return await Promise.race([pending, deadline]);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    let courierError = asCourierError(error, name, controller.signal.aborted ? timedOut() : null);
    // A create the platform stopped waiting for (the adapter settled no outcome in time) may have reached the courier.
    if (operation === "create" && courierError.code === "COURIER_TIMEOUT") courierError = courierError.unknownOutcome();
    outcome = courierError.code;
    if (courierError.code === "COURIER_TIMEOUT" && options.onLateResult)
      pending.then(options.onLateResult, () => undefined);
    throw courierError;
  } finally {
    clearTimeout(abortTimer);
    clearTimeout(deadlineTimer);
    recordCourierCall({
      courier: courier.capabilities.id,
      operation,
      outcome,
      durationMs: performance.now() - started,
    });
  }
}

function asCourierError(error: unknown, name: string, timeout: CourierError | null): CourierError {
  if (error instanceof CourierError) return error;
  if (timeout) return timeout;
  // An adapter's bug or an unexpected answer: logged for us (never the settings), reported as unavailable.
  logger.error({ courier: name, err: error instanceof Error ? error.message : String(error) }, "courier call failed");
  return new CourierError("COURIER_UNAVAILABLE", `${name} could not be reached.`);
}
