import { mediaTypeOf } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { idempotent } from "@/server/http/idempotent";
import { route } from "@/server/http/operation";
import { createShippingOrdersOp } from "@/server/operations/shipping-orders";
import { createShippingOrders } from "@/server/services/shipping-orders/create-shipping-orders";
import { ordersCost } from "@/server/services/rate-limits/request-costs";
import { orderBatch } from "@/server/services/shipping-orders/order-batch";

export const POST = route(
  createShippingOrdersOp,
  async ({ request, query, body, params, db, principal, baseUrl, rateLimit }) => {
    const batch = orderBatch(mediaTypeOf(request), body);
    await rateLimit.take(ordersCost(batch.orders.length) - 1);
    return idempotent(request, db, principal.accountId, body, async () =>
      json(
        await createShippingOrders(
          db,
          { accountId: principal.accountId, apiKeyId: principal.keyId },
          {
            courierId: params.courier_id,
            profileId: query.profile,
            batch,
            preventDuplicateOrders: principal.preventDuplicateOrders,
            baseUrl,
          },
        ),
      ),
    );
  },
);
