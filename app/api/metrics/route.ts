import { timingSafeEqual } from "node:crypto";
import { env } from "@/server/env";
import { restRoute } from "@/server/http/handler";
import { problem } from "@/server/http/problem";
import { refreshJobsWaiting, refreshPoolStats } from "@/server/observability/jobs-waiting";
import { metrics } from "@/server/observability/metrics";

export const dynamic = "force-dynamic";

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Prometheus metrics of this web process: only with METRICS_TOKEN set (404 otherwise) and sent as a bearer token. */
export const GET = restRoute(async ({ request, db }) => {
  const token = env().METRICS_TOKEN;
  if (!token) return problem(404, "Not found.", { code: "not_found" });
  const sent = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "";
  if (!same(sent, token))
    return problem(401, "Send the metrics token as a bearer token.", {
      code: "unauthorized",
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    });
  await Promise.all([refreshJobsWaiting(db).catch(() => {}), refreshPoolStats().catch(() => {})]);
  return new Response(await metrics.registry.metrics(), {
    headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" },
  });
}, "getMetrics");
