import { createServer, type Server } from "node:http";
import { logger } from "./logger";
import { metrics } from "./metrics";
import { bearerMatches } from "./metrics-token";

/**
 * A dedicated worker's `GET /metrics` (it has no Next server), under the web route's rules: served only when
 * `METRICS_TOKEN` is set and sent as a bearer token (401 otherwise), 404 without a token configured, as
 * `GET /api/metrics` answers then. `refresh` brings the gauges read on demand up to date first.
 */
export function createMetricsServer({
  token,
  refresh,
}: {
  token: string | undefined;
  refresh: () => Promise<void>;
}): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://metrics").pathname;
    if (!token || path !== "/metrics" || req.method !== "GET") {
      res.writeHead(404).end();
      return;
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { "www-authenticate": 'Bearer realm="metrics"' }).end();
      return;
    }
    void refresh()
      .catch(() => {})
      .then(() => metrics.registry.metrics())
      .then(
        (body) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(body),
        (error: unknown) => {
          logger.error({ err: error instanceof Error ? error.stack : String(error) }, "metrics: collecting failed");
          res.writeHead(500).end();
        },
      );
  });
}
