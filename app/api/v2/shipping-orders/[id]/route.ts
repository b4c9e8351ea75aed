import { json, noContent } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { deleteShippingOrderOp, getShippingOrderOp } from "@/server/operations/shipping-orders";
import { deleteShippingOrder } from "@/server/services/shipping-orders/delete-shipping-order";
import { getShippingOrder } from "@/server/services/shipping-orders/get-shipping-order";

export const GET = route(getShippingOrderOp, async ({ params, db, principal, baseUrl }) =>
  json(await getShippingOrder(db, principal.accountId, params.id, baseUrl)),
);

export const DELETE = route(deleteShippingOrderOp, async ({ params, db, principal, baseUrl }) => {
  await deleteShippingOrder(db, principal.accountId, params.id, baseUrl);
  return noContent();
});
