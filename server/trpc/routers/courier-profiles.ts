import { z } from "zod";
import { courierCatalogue } from "@/server/services/courier-profiles/courier-catalogue";
import { checkCourierProfile } from "@/server/services/courier-profiles/check-courier-profile";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { listCourierProfiles } from "@/server/services/courier-profiles/list-courier-profiles";
import { deleteCourierProfile } from "@/server/services/courier-profiles/delete-courier-profile";
import { createCourierProfileInput } from "@/server/services/courier-profiles/schemas";
import { setDefaultCourierProfile } from "@/server/services/courier-profiles/set-default-courier-profile";
import { updateCourierProfile } from "@/server/services/courier-profiles/update-courier-profile";
import { accountProcedure, createTRPCRouter, protectedProcedure } from "../init";

export const courierProfilesRouter = createTRPCRouter({
  /** What each courier offers (services, countries, COD), for the profile form's selects. */
  couriers: protectedProcedure.query(() => courierCatalogue()),
  list: accountProcedure.query(({ ctx }) => listCourierProfiles(ctx.db, ctx.actor, ctx.access.accountId)),
  create: accountProcedure
    .input(createCourierProfileInput)
    .mutation(({ ctx, input }) => createCourierProfile(ctx.db, ctx.actor, input, { ip: ctx.ip })),
  setDefault: protectedProcedure
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => setDefaultCourierProfile(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
  /** `changes` is the REST PATCH body, parsed by the service so both doors refuse the same input. */
  update: protectedProcedure
    .input(z.object({ id: z.string(), changes: z.unknown() }))
    .mutation(({ ctx, input }) => updateCourierProfile(ctx.db, ctx.actor, input.id, input.changes, { ip: ctx.ip })),
  /** Asks the courier whether the profile's credentials work (the REST `/check`; the service charges the limits). */
  check: protectedProcedure
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => checkCourierProfile(ctx.db, ctx.actor, input.id)),
  delete: protectedProcedure
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => deleteCourierProfile(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
});
