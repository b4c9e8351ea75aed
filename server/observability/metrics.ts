import client from "prom-client";

/**
 * The process's Prometheus metrics (one registry per process: a web process and a worker each expose their own;
 * see docs/production.md). Kept on globalThis so Next's module copies share one registry.
 */
function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const httpRequests = new client.Counter({
    name: "sop_http_requests_total",
    help: "HTTP requests answered, by REST operation id or tRPC procedure and status.",
    labelNames: ["operation", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new client.Histogram({
    name: "sop_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by operation and status.",
    labelNames: ["operation", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const courierCalls = new client.Histogram({
    name: "sop_courier_call_duration_seconds",
    help: "Courier calls by courier, operation and outcome (ok or the error code), with their duration.",
    labelNames: ["courier", "operation", "outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const webhookDeliveries = new client.Histogram({
    name: "sop_webhook_attempt_duration_seconds",
    help: "Webhook delivery attempts by outcome (succeeded, failed: the receiver's answer or none), with their duration.",
    labelNames: ["outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const webhookLag = new client.Histogram({
    name: "sop_webhook_delivery_lag_seconds",
    help: "From an event's transaction to the end of its first delivery attempt.",
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const jobs = new client.Counter({
    name: "sop_jobs_total",
    help: "Background jobs run by this process, by queue and outcome.",
    labelNames: ["queue", "outcome"] as const,
    registers: [registry],
  });
  const pickupPoints = new client.Gauge({
    name: "sop_pickup_points",
    help: "Pickup points in the directory, by courier and whether they are open (set after each sync).",
    labelNames: ["courier", "open"] as const,
    registers: [registry],
  });
  const pickupPointSyncSuccess = new client.Gauge({
    name: "sop_pickup_point_sync_last_success_timestamp_seconds",
    help: "When each directory feed last synced completely (Unix seconds).",
    labelNames: ["feed"] as const,
    registers: [registry],
  });
  const pickupPointSyncDuration = new client.Histogram({
    name: "sop_pickup_point_sync_duration_seconds",
    help: "Directory feed syncs by feed and outcome (synced, failed), with their duration.",
    labelNames: ["feed", "outcome"] as const,
    buckets: [1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  return {
    registry,
    httpRequests,
    httpDuration,
    courierCalls,
    webhookDeliveries,
    webhookLag,
    jobs,
    pickupPoints,
    pickupPointSyncSuccess,
    pickupPointSyncDuration,
  };
}

const holder = globalThis as unknown as { __sopMetrics?: ReturnType<typeof createMetrics> };
export const metrics = (holder.__sopMetrics ??= createMetrics());
