import { logger } from "./logger";
import { metrics } from "./metrics";
import type { RequestContext } from "./request-context";

/**
 * The end of every HTTP request (REST and tRPC): its id on the answer, one log line, its metrics. The path is
 * logged without its query (which may hold references a partner considers private); the operation names it.
 */
export function finishRequest(
  request: Request,
  response: Response,
  context: RequestContext,
  started: number,
): Response {
  const durationMs = performance.now() - started;
  const operation = context.operation ?? "unknown";
  const status = response.status;
  try {
    response.headers.set("x-request-id", context.requestId);
  } catch {
    // An immutable answer (a redirect made by the platform): it keeps its headers.
  }
  metrics.httpRequests.inc({ operation, status });
  metrics.httpDuration.observe({ operation, status }, durationMs / 1000);
  logger.info(
    {
      operation,
      method: request.method,
      path: new URL(request.url).pathname,
      status,
      durationMs: Math.round(durationMs * 10) / 10,
    },
    "request",
  );
  return response;
}
