import { json, restRoute } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { preflight } from "@/server/http/publishable-key";
import { searchPickupPointsOp } from "@/server/operations/pickup-points";
import { directoryCourier } from "@/server/services/pickup-points/directory-courier";
import { searchPickupPoints } from "@/server/services/pickup-points/search-pickup-points";

export const GET = route(searchPickupPointsOp, async ({ params, query, db }) =>
  json(await searchPickupPoints(db, { ...query, courier: directoryCourier(params.courier_id) })),
);

export const OPTIONS = restRoute(({ db, request }) => preflight(db, request));
