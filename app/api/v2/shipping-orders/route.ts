import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { listShippingOrdersOp } from "@/server/operations/shipping-orders";
import { listShippingOrders } from "@/server/services/shipping-orders/list-shipping-orders";

export const GET = route(listShippingOrdersOp, async ({ query, db, principal, baseUrl }) =>
  json(await listShippingOrders(db, principal.accountId, query, baseUrl)),
);
