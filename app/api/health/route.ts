import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { getHealthOp } from "@/server/operations/health";
import { checkHealth } from "@/server/services/health/check-health";

export const dynamic = "force-dynamic";

export const GET = route(getHealthOp, async () => {
  const healthy = await checkHealth();
  return json(healthy ? { status: "ok" } : { status: "unavailable" }, healthy ? 200 : 503);
});
