import { z } from "zod";
import { queryStatistics, statisticsByAccount } from "@/server/services/statistics/query-statistics";
import { MAX_SPAN_DAYS } from "@/server/services/statistics/schemas";
import { statisticsCost, statisticsDaysCost } from "@/server/services/rate-limits/request-costs";
import { accountProcedure, createTRPCRouter, limited, staffProcedure } from "../init";

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
  /** Staff: every account's totals over its own last `days` days (each in its time zone), the most failures first. */
  byAccount: staffProcedure
    .input(
      z.object({
        days: z
          .number()
          .int()
          .min(1)
          .max(MAX_SPAN_DAYS + 1),
      }),
    )
    .use(limited(({ days }: { days: number }) => statisticsDaysCost(days)))
    .query(({ ctx, input }) => statisticsByAccount(ctx.db, ctx.actor, input)),
});
