import { mediaTypeOf, readJson } from "@/server/http/body";
import { json } from "@/server/http/handler";
import { single } from "@/server/http/query";
import { withApiKey } from "@/server/http/with-api-key";
import { ORDER_CONTENT_TYPES, orderBatch } from "@/server/services/shipping-orders/order-batch";
import { validateShippingOrders } from "@/server/services/shipping-orders/validate-shipping-orders";

export const POST = withApiKey<{ courier_id: string }>(
  "shipping-orders:validate",
  async ({ request, url, params, db, principal }) => {
    const body = await readJson(request, ORDER_CONTENT_TYPES);
    const batch = orderBatch(mediaTypeOf(request), body);
    const result = await validateShippingOrders(
      db,
      { accountId: principal.accountId, apiKeyId: principal.keyId },
      { courierId: params.courier_id, profileId: single(url, "profile"), batch },
    );
    return json(result);
  },
  { query: ["profile"] },
);
