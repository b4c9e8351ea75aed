import { checkHealth } from "@/server/services/health/check-health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const healthy = await checkHealth();
  return Response.json(healthy ? { status: "ok" } : { status: "unavailable" }, { status: healthy ? 200 : 503 });
}
