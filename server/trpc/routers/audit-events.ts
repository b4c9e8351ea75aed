import { listAuditEvents } from "@/server/services/audit/list-audit-events";
import { pagingInput } from "@/server/services/pagination";
import { accountProcedure, createTRPCRouter } from "../init";

export const auditEventsRouter = createTRPCRouter({
  list: accountProcedure
    .input(pagingInput)
    .query(({ ctx, input }) =>
      listAuditEvents(ctx.db, ctx.actor, ctx.access.accountId, { page: input.page, pageSize: input.pageSize }),
    ),
});
