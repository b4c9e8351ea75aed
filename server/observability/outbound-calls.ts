import { logger } from "./logger";
import { metrics } from "./metrics";

/** One courier call's end: a log line and the courier-call histogram (outcome: `ok` or the error code). */
export function recordCourierCall(call: {
  courier: string;
  operation: string;
  outcome: string;
  durationMs: number;
}): void {
  metrics.courierCalls.observe(
    { courier: call.courier, operation: call.operation, outcome: call.outcome },
    call.durationMs / 1000,
  );
  const level = call.outcome === "ok" ? "info" : "warn";
  logger[level]({ ...call, durationMs: Math.round(call.durationMs) }, "courier call");
}

/** One webhook attempt's end: a log line, the attempt histogram and, for a first attempt, the delivery lag. */
export function recordWebhookDelivery(attempt: {
  deliveryId: string;
  endpointId: string;
  outcome: "succeeded" | "failed";
  status: number | null;
  durationMs: number;
  lagMs: number | null;
}): void {
  metrics.webhookDeliveries.observe({ outcome: attempt.outcome }, attempt.durationMs / 1000);
  if (attempt.lagMs !== null) metrics.webhookLag.observe(attempt.lagMs / 1000);
  logger.info(attempt, "webhook attempt");
}
