import { z } from "zod";
import { ORDER_EVENT_TYPES } from "@/lib/event-types";
import { shippingOrderView } from "../shipping-orders/shipping-order-view";

/** Sent only to one endpoint on request (`POST /private/webhook-endpoints/{id}/test`); not in the feed. */
export const TEST_EVENT_TYPE = "webhook.test";

export const orderEventType = z.enum(ORDER_EVENT_TYPES);

const status = shippingOrderView.shape.status;

export const courierRejectedData = z.object({
  referenceNumber: z.string(),
  externalReference: z.string().nullable(),
  code: z.string().describe("COURIER_REJECTED, COURIER_TIMEOUT or COURIER_UNAVAILABLE"),
  message: z.string(),
  courier: z.string(),
  courierProfile: z.uuid(),
});

export const eventView = z
  .object({
    id: z.uuid().describe("The event id; webhooks send it as `webhook-id`, the same on every retry."),
    type: z.enum([...ORDER_EVENT_TYPES, TEST_EVENT_TYPE]),
    created: z.string().describe("UTC, `yyyy-MM-ddTHH:mm:ss.fff`"),
    referenceSource: z.string().nullable().describe("The order's source pair; null only for `webhook.test`."),
    sourceIdentifier: z.string().nullable(),
    data: z.union([
      z.object({ shippingOrder: shippingOrderView, replaced: z.uuid().nullable() }).describe("shipping_order.created"),
      z.object({ shippingOrder: shippingOrderView, previousStatus: status }).describe("shipping_order.status_changed"),
      z
        .object({ shippingOrder: shippingOrderView, reason: z.enum(["deleted", "replaced"]) })
        .describe("shipping_order.cancelled"),
      courierRejectedData.describe("shipping_order.courier_rejected"),
      z.object({ webhookEndpointId: z.uuid(), message: z.string() }).describe("webhook.test"),
    ]),
  })
  .describe("An order event, as the feed returns it and webhooks POST it.");

export type EventView = z.infer<typeof eventView>;
