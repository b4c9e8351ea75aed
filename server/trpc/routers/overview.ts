import { getAccountOverview } from "@/server/services/overview/get-account-overview";
import { getStaffOverview } from "@/server/services/overview/get-staff-overview";
import { accountProcedure, createTRPCRouter, staffProcedure } from "../init";

export const overviewRouter = createTRPCRouter({
  get: accountProcedure.query(({ ctx }) => getAccountOverview(ctx.db, ctx.actor, ctx.access.accountId)),
  /** The staff landing page: failures across every account. */
  staff: staffProcedure.query(({ ctx }) => getStaffOverview(ctx.db, ctx.actor)),
});
