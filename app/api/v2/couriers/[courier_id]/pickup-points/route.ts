import { json, restRoute } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { preflight } from "@/server/http/preflight";
import { searchPickupPointsOp } from "@/server/operations/pickup-points";
import { directoryCourier } from "@/server/services/pickup-points/directory-courier";
import { searchPickupPoints } from "@/server/services/pickup-points/search-pickup-points";
import { pickupPointSearchCost } from "@/server/services/rate-limits/request-costs";

export const GET = route(searchPickupPointsOp, async ({ params, query, db, rateLimit, principal }) =>
  // The wrapper counted one request; the rest of the search's cost is taken once its input is known to be bounded.
  json(
    await searchPickupPoints(db, { ...query, courier: directoryCourier(params.courier_id) }, () =>
      rateLimit.take(pickupPointSearchCost(principal.kind) - 1),
    ),
  ),
);

// The same answer for every origin, from no database: the real request is checked against its own key.
export const OPTIONS = restRoute(async () => preflight());
