import { mediaTypeOf } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { route } from "@/server/http/operation";
import { validateShippingOrdersOp } from "@/server/operations/shipping-orders";
import { ordersCost } from "@/server/services/rate-limits/request-costs";
import { orderBatch } from "@/server/services/shipping-orders/order-batch";
import { validateShippingOrders } from "@/server/services/shipping-orders/validate-shipping-orders";

export const POST = route(
  validateShippingOrdersOp,
  async ({ request, query, body, params, db, principal, rateLimit }) => {
    const batch = orderBatch(mediaTypeOf(request), body);
    // Each order counts as one request, as on create: a batch of 500 is 500 validations recorded.
    await rateLimit.take(ordersCost(batch.orders.length) - 1);
    const result = await validateShippingOrders(
      db,
      { accountId: principal.accountId, apiKeyId: principal.keyId },
      { courierId: params.courier_id, profileId: query.profile, batch },
    );
    return json(result);
  },
);
