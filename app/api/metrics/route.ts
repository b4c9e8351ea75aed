import { env } from "@/server/env";
import { restRoute } from "@/server/http/handler";
import { problem } from "@/server/http/problem";
import { refreshJobsWaiting, refreshPoolStats } from "@/server/observability/jobs-waiting";
import { metrics } from "@/server/observability/metrics";
import { bearerMatches } from "@/server/observability/metrics-token";

export const dynamic = "force-dynamic";

/** Prometheus metrics of this web process: only with METRICS_TOKEN set (404 otherwise) and sent as a bearer token. */
export const GET = restRoute(async ({ request, db }) => {
  const token = env().METRICS_TOKEN;
  if (!token) return problem(404, "Not found.", { code: "not_found" });
  if (!bearerMatches(request.headers.get("authorization"), token))
    return problem(401, "Send the metrics token as a bearer token.", {
      code: "unauthorized",
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    });
  await Promise.all([refreshJobsWaiting(db).catch(() => {}), refreshPoolStats().catch(() => {})]);
  return new Response(await metrics.registry.metrics(), {
    headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" },
  });
}, "getMetrics");
