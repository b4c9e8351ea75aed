import { z } from "zod";
import { getValidationResult } from "@/server/services/validation-results/get-validation-result";
import {
  listValidationResults,
  listValidationResultsInput,
} from "@/server/services/validation-results/list-validation-results";
import { createTRPCRouter, protectedProcedure } from "../init";

// Not account procedures: staff may list every account at once, and the service decides who sees what.
export const validationResultsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(listValidationResultsInput)
    .query(({ ctx, input }) => listValidationResults(ctx.db, ctx.actor, input)),
  get: protectedProcedure
    .input(z.object({ id: z.string() }))
    .query(({ ctx, input }) => getValidationResult(ctx.db, ctx.actor, input.id)),
});
