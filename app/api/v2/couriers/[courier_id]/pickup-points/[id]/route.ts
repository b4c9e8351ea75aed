import { json, restRoute } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { preflight } from "@/server/http/preflight";
import { getPickupPointOp } from "@/server/operations/pickup-points";
import { directoryCourier } from "@/server/services/pickup-points/directory-courier";
import { getPickupPoint } from "@/server/services/pickup-points/search-pickup-points";

export const GET = route(getPickupPointOp, async ({ params, db }) =>
  json(await getPickupPoint(db, directoryCourier(params.courier_id), params.id)),
);

// The same answer for every origin, from no database: the real request is checked against its own key.
export const OPTIONS = restRoute(async () => preflight());
