import { mediaTypeOf, readJson } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { idempotent } from "@/server/http/idempotent";
import { single } from "@/server/http/query";
import { withApiKey } from "@/server/http/with-api-key";
import { createShippingOrders } from "@/server/services/shipping-orders/create-shipping-orders";
import { ORDER_CONTENT_TYPES, orderBatch } from "@/server/services/shipping-orders/order-batch";

export const POST = withApiKey<{ courier_id: string }>(
  "shipping-orders:write",
  async ({ request, url, params, db, principal, baseUrl, rateLimit }) => {
    const body = await readJson(request, ORDER_CONTENT_TYPES);
    const batch = orderBatch(mediaTypeOf(request), body);
    await rateLimit.take(batch.orders.length - 1);
    return idempotent(request, db, principal.accountId, body, async () =>
      json(
        await createShippingOrders(
          db,
          { accountId: principal.accountId, apiKeyId: principal.keyId },
          {
            courierId: params.courier_id,
            profileId: single(url, "profile"),
            batch,
            preventDuplicateOrders: principal.preventDuplicateOrders,
            baseUrl,
          },
        ),
      ),
    );
  },
  { query: ["profile"] },
);
