import Negotiator from "negotiator";
import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { getStatisticsOp } from "@/server/operations/statistics";
import { queryStatistics } from "@/server/services/statistics/query-statistics";
import { statisticsCsv } from "@/server/services/statistics/statistics-csv";
import { statisticsCost } from "@/server/services/rate-limits/request-costs";

const MEDIA_TYPES = ["application/json", "text/csv"];

export const GET = route(getStatisticsOp, async ({ request, query, db, principal, rateLimit }) => {
  // Weighted by the days asked about: a year's question reads twelve times a month's.
  await rateLimit.take(statisticsCost(query) - 1);
  const view = await queryStatistics(db, principal.accountId, query);
  const accept = request.headers.get("accept") ?? undefined;
  const preferred = new Negotiator({ headers: { accept } }).mediaType(MEDIA_TYPES);
  if (preferred !== "text/csv") return json(view);
  return new Response(statisticsCsv(view), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statistics-${view.from}-${view.to}.csv"`,
      Vary: "Accept",
    },
  });
});
