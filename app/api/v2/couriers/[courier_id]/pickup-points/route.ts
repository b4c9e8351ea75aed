import { json, restRoute } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { preflight } from "@/server/http/publishable-key";
import { searchPickupPointsOp } from "@/server/operations/pickup-points";
import { directoryCourier } from "@/server/services/pickup-points/directory-courier";
import { searchPickupPoints } from "@/server/services/pickup-points/search-pickup-points";

export const GET = route(searchPickupPointsOp, async ({ params, query, db, rateLimit, principal }) =>
  // The wrapper counted one request; a secret key's search is charged the rest of its cost once its input is known to
  // be bounded. A widget key's is not: its searches are a shop's shoppers typing (about four a query), held one address
  // at a time by its per-address limit first, and at five each the contract's default 600 a minute would serve a shop
  // about thirty queries a minute.
  json(
    await searchPickupPoints(db, { ...query, courier: directoryCourier(params.courier_id) }, (cost) =>
      principal.kind === "publishable" ? Promise.resolve() : rateLimit.take(cost - 1),
    ),
  ),
);

// The same answer for every origin, from no database: the real request is checked against its own key.
export const OPTIONS = restRoute(async () => preflight());
