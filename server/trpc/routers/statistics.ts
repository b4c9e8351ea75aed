import { z } from "zod";
import { queryStatistics, statisticsByAccount } from "@/server/services/statistics/query-statistics";
import { isCalendarDay } from "@/server/services/statistics/schemas";
import { statisticsCost } from "@/server/services/rate-limits/request-costs";
import { accountProcedure, createTRPCRouter, limited, staffProcedure } from "../init";

const day = z.string().refine(isCalendarDay, "must be a date yyyy-MM-dd");

export const statisticsRouter = createTRPCRouter({
  /** What `GET /statistics` answers, for the dashboard's Statistics page (the same parameters, parsed alike). */
  get: accountProcedure
    .input(
      z.object({
        from: z.string().optional(),
        to: z.string().optional(),
        groupBy: z.string().optional(),
        by: z.array(z.string()).optional(),
        referenceSource: z.string().optional(),
        sourceIdentifier: z.string().optional(),
        courier: z.array(z.string()).optional(),
        courierProfile: z.array(z.string()).optional(),
      }),
    )
    .use(limited(statisticsCost))
    .query(({ ctx, input }) => {
      const { accountId: _accountId, ...query } = input;
      return queryStatistics(ctx.db, ctx.access.accountId, query);
    }),
  /** Staff: every account's totals over a period (each in its own time zone), the most failures first. */
  byAccount: staffProcedure
    .input(z.object({ from: day.optional(), to: day.optional() }))
    .use(limited(statisticsCost))
    .query(({ ctx, input }) => statisticsByAccount(ctx.db, ctx.actor, input)),
});
