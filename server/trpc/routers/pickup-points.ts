import { z } from "zod";
import { POINT_TYPES } from "@/db/schema";
import { pagingInput } from "@/server/services/pagination";
import { directoryCourier } from "@/server/services/pickup-points/directory-courier";
import { searchPickupPoints } from "@/server/services/pickup-points/search-pickup-points";
import { pickupPointSearchCost } from "@/server/services/rate-limits/request-costs";
import { throttleDashboard } from "@/server/services/rate-limits/throttle-dashboard";
import { accountProcedure, createTRPCRouter } from "../init";

/** The REST search's parameters, typed (the picker sends numbers and objects, not query strings). */
const searchInput = pagingInput.extend({
  courier: z.string().min(1, "courier is required"),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "country must be an ISO code of 2 letters")
    .optional(),
  q: z.string().trim().max(100, "q must have at most 100 characters").optional(),
  zip: z.string().trim().max(16, "zip must have at most 16 characters").optional(),
  near: z
    .object({
      lat: z.number().min(-90, "near.lat must be between -90 and 90").max(90, "near.lat must be between -90 and 90"),
      lon: z
        .number()
        .min(-180, "near.lon must be between -180 and 180")
        .max(180, "near.lon must be between -180 and 180"),
    })
    .optional(),
  radiusKm: z.number().positive("radiusKm must be more than 0").max(100, "radiusKm must be at most 100").optional(),
  type: z.enum(POINT_TYPES).optional(),
  cod: z.boolean().optional(),
  weightKg: z.number().positive("weightKg must be more than 0").optional(),
  open: z.boolean().optional(),
});

// An account procedure although the directory is the same for everyone: the dashboard's picker is for members,
// and the REST door asks for an API key of an account as well. Each search, one call or one of a batch, is charged
// as on the REST door (pickupPointSearchCost) against the user's and the account's limits.
export const pickupPointsRouter = createTRPCRouter({
  search: accountProcedure
    .input(searchInput)
    .query(({ ctx, input: { accountId: _accountId, courier, ...search } }) =>
      searchPickupPoints(ctx.db, { ...search, courier: directoryCourier(courier) }, () =>
        throttleDashboard(
          ctx.db,
          { userId: ctx.actor.userId, accountId: ctx.access.accountId },
          pickupPointSearchCost("dashboard"),
        ),
      ),
    ),
});
