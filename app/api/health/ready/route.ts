import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { getReadinessOp } from "@/server/operations/health";
import { checkReadiness } from "@/server/services/health/check-readiness";

export const dynamic = "force-dynamic";

export const GET = route(getReadinessOp, async () => {
  const readiness = await checkReadiness();
  return readiness.ready
    ? json({ status: "ready" }, 200)
    : json({ status: "unavailable", reason: readiness.reason }, 503);
});
