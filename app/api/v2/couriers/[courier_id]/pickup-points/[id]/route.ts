import { json, restRoute } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { preflight } from "@/server/http/publishable-key";
import { getPickupPointOp } from "@/server/operations/pickup-points";
import { directoryCourier } from "@/server/services/pickup-points/directory-courier";
import { getPickupPoint } from "@/server/services/pickup-points/search-pickup-points";

export const GET = route(getPickupPointOp, async ({ params, db }) =>
  json(await getPickupPoint(db, directoryCourier(params.courier_id), params.id)),
);

export const OPTIONS = restRoute(({ db, request }) => preflight(db, request));
