import { z } from "zod";
import { listOrderEvents } from "@/server/services/events/list-order-events";
import { pagingInput } from "@/server/services/pagination";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { deleteWebhookEndpoint } from "@/server/services/webhooks/delete-webhook-endpoint";
import { listWebhookDeliveries } from "@/server/services/webhooks/list-webhook-deliveries";
import { listWebhookEndpoints } from "@/server/services/webhooks/list-webhook-endpoints";
import { resendWebhookDelivery } from "@/server/services/webhooks/resend-webhook-delivery";
import { rotateWebhookSecret } from "@/server/services/webhooks/rotate-webhook-secret";
import {
  createWebhookEndpointInput,
  DELIVERY_STATUSES,
  updateWebhookEndpointInput,
} from "@/server/services/webhooks/schemas";
import { sendTestWebhook } from "@/server/services/webhooks/send-test-webhook";
import { updateWebhookEndpoint } from "@/server/services/webhooks/update-webhook-endpoint";
import { accountProcedure, createTRPCRouter, protectedProcedure } from "../init";

const byId = z.object({ id: z.string() });

export const webhooksRouter = createTRPCRouter({
  list: accountProcedure
    .input(pagingInput)
    .query(({ ctx, input }) =>
      listWebhookEndpoints(ctx.db, ctx.actor, ctx.access.accountId, { page: input.page, pageSize: input.pageSize }),
    ),
  /** The answer holds the signing secret; it is never readable again. */
  create: accountProcedure
    .input(createWebhookEndpointInput)
    .mutation(({ ctx, input }) => createWebhookEndpoint(ctx.db, ctx.actor, input, { ip: ctx.ip })),
  update: protectedProcedure
    .input(updateWebhookEndpointInput.extend(byId.shape))
    .mutation(({ ctx, input: { id, ...changes } }) =>
      updateWebhookEndpoint(ctx.db, ctx.actor, id, changes, { ip: ctx.ip }),
    ),
  delete: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
  rotateSecret: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
  sendTest: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => sendTestWebhook(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
  deliveries: protectedProcedure
    .input(pagingInput.extend({ id: z.string(), status: z.enum(DELIVERY_STATUSES).optional() }))
    .query(({ ctx, input }) =>
      listWebhookDeliveries(
        ctx.db,
        ctx.actor,
        input.id,
        { status: input.status },
        { page: input.page, pageSize: input.pageSize },
      ),
    ),
  resend: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => resendWebhookDelivery(ctx.db, ctx.actor, input.id, { ip: ctx.ip })),
  /** The order detail page: the order's events and their deliveries. */
  orderEvents: accountProcedure
    .input(z.object({ orderId: z.string() }))
    .query(({ ctx, input }) => listOrderEvents(ctx.db, ctx.actor, ctx.access.accountId, input.orderId)),
});
