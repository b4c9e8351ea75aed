import { getAccountOverview } from "@/server/services/overview/get-account-overview";
import { accountProcedure, createTRPCRouter } from "../init";

export const overviewRouter = createTRPCRouter({
  get: accountProcedure.query(({ ctx }) => getAccountOverview(ctx.db, ctx.actor, ctx.access.accountId)),
});
