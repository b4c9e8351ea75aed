import { z } from "zod";
import { getRefusedAttempt } from "@/server/services/refused-attempts/get-refused-attempt";
import {
  listRefusedAttempts,
  listRefusedAttemptsInput,
} from "@/server/services/refused-attempts/list-refused-attempts";
import { createTRPCRouter, protectedProcedure } from "../init";

// Not account procedures: staff may list every account at once, and the service decides who sees what.
export const refusedAttemptsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listRefusedAttemptsInput)
    .query(({ ctx, input }) => listRefusedAttempts(ctx.db, ctx.actor, input)),
  get: protectedProcedure
    .input(z.object({ id: z.string() }))
    .query(({ ctx, input }) => getRefusedAttempt(ctx.db, ctx.actor, input.id)),
});
