import { z } from "zod";
import { activateSource } from "@/server/services/sources/activate-source";
import { deactivateSource } from "@/server/services/sources/deactivate-source";
import { listSources } from "@/server/services/sources/list-sources";
import { activateSourceInput } from "@/server/services/sources/schemas";
import { accountProcedure, createTRPCRouter, protectedProcedure } from "../init";

export const sourcesRouter = createTRPCRouter({
  list: accountProcedure.query(({ ctx }) => listSources(ctx.db, ctx.actor, ctx.access.accountId)),
  activate: accountProcedure
    .input(activateSourceInput)
    .mutation(({ ctx, input }) => activateSource(ctx.db, ctx.actor, input, { ip: ctx.ip })),
  deactivate: protectedProcedure
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => deactivateSource(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
});
