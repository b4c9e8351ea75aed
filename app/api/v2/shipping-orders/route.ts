import { json } from "@/server/http/handler";
import { parseQuery } from "@/server/http/query";
import { withApiKey } from "@/server/http/with-api-key";
import {
  LIST_ARRAY_PARAMS,
  LIST_PARAMS,
  listShippingOrders,
  listShippingOrdersQuery,
} from "@/server/services/shipping-orders/list-shipping-orders";

export const GET = withApiKey(
  "shipping-orders:read",
  async ({ url, db, principal, baseUrl }) =>
    json(
      await listShippingOrders(
        db,
        principal.accountId,
        parseQuery(listShippingOrdersQuery, url, LIST_ARRAY_PARAMS),
        baseUrl,
      ),
    ),
  { query: LIST_PARAMS },
);
