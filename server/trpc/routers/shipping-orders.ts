import { z } from "zod";
import { createShippingOrdersAsUser } from "@/server/services/shipping-orders/create-shipping-orders-as-user";
import { deleteShippingOrderAsUser } from "@/server/services/shipping-orders/delete-shipping-order-as-user";
import { getShippingOrder } from "@/server/services/shipping-orders/get-shipping-order";
import { listShippingOrders, listShippingOrdersQuery } from "@/server/services/shipping-orders/list-shipping-orders";
import { MAX_BATCH, orderBatch } from "@/server/services/shipping-orders/order-batch";
import { validateShippingOrders } from "@/server/services/shipping-orders/validate-shipping-orders";
import { ordersCost } from "@/server/services/rate-limits/request-costs";
import { accountProcedure, createTRPCRouter, limited } from "../init";

const orderId = z.object({ id: z.string() });

const orderRequest = z.object({
  courierId: z.string().min(1, "Choose a courier"),
  profileId: z.string().nullish(),
  body: z.unknown(),
});

/** What an order request counts against the limits: its orders (a body the batch rules refuse counts at most 500). */
const orderRequestCost = (input: z.output<typeof orderRequest>) =>
  ordersCost(Array.isArray(input.body) ? Math.min(input.body.length, MAX_BATCH) : 1);

export const shippingOrdersRouter = createTRPCRouter({
  /** The REST list's own query schema, so filters mean the same (and fail the same) through both doors. */
  list: accountProcedure
    .input(listShippingOrdersQuery)
    .query(({ ctx, input }) => listShippingOrders(ctx.db, ctx.access.accountId, input, ctx.baseUrl)),
  get: accountProcedure
    .input(orderId)
    .query(({ ctx, input }) => getShippingOrder(ctx.db, ctx.access.accountId, input.id, ctx.baseUrl)),
  delete: accountProcedure
    .input(orderId)
    .mutation(({ ctx, input }) =>
      deleteShippingOrderAsUser(ctx.db, ctx.actor, ctx.access.accountId, input.id, ctx.baseUrl),
    ),
  /**
   * `body` is one order or an array, as a partner would send it as `application/json`; the result is
   * recorded for review with the user who asked instead of an API key.
   */
  validate: accountProcedure
    .input(orderRequest)
    .use(limited(orderRequestCost))
    .mutation(({ ctx, input }) =>
      validateShippingOrders(
        ctx.db,
        { accountId: ctx.access.accountId, userId: ctx.actor.userId },
        { courierId: input.courierId, profileId: input.profileId, batch: orderBatch("application/json", input.body) },
      ),
    ),
  /** The REST create, from the order form: by hand, or a refused order fixed and sent again. */
  create: accountProcedure
    .input(orderRequest)
    .use(limited(orderRequestCost))
    .mutation(({ ctx, input }) =>
      createShippingOrdersAsUser(ctx.db, ctx.actor, ctx.access.accountId, { ...input, baseUrl: ctx.baseUrl }),
    ),
});
