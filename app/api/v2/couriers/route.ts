import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listCouriersOp } from "@/server/operations/configurations";
import { listCouriers } from "@/server/services/configurations/list-couriers";

export const GET = route(listCouriersOp, async ({ db }) => json(await listCouriers(db)));
