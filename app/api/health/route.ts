import { handler, json } from "@/server/http/handler";
import { checkHealth } from "@/server/services/health/check-health";

export const dynamic = "force-dynamic";

export const GET = handler(async () => {
  const healthy = await checkHealth();
  return json(healthy ? { status: "ok" } : { status: "unavailable" }, healthy ? 200 : 503);
});
