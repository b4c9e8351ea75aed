import { json, noContent } from "@/server/http/handler";
import { withApiKey } from "@/server/http/with-api-key";
import { deleteShippingOrder } from "@/server/services/shipping-orders/delete-shipping-order";
import { getShippingOrder } from "@/server/services/shipping-orders/get-shipping-order";

export const GET = withApiKey<{ id: string }>("shipping-orders:read", async ({ params, db, principal, baseUrl }) =>
  json(await getShippingOrder(db, principal.accountId, params.id, baseUrl)),
);

export const DELETE = withApiKey<{ id: string }>(
  "shipping-orders:write",
  async ({ params, db, principal, baseUrl }) => {
    await deleteShippingOrder(db, principal.accountId, params.id, baseUrl);
    return noContent();
  },
);
