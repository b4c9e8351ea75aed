import { ORDER_EVENT_TYPES } from "@/server/services/events/order-event-types";

export { ORDER_EVENT_TYPES };

export const eventTypeLabels: Record<string, string> = {
  "shipping_order.created": "Created",
  "shipping_order.status_changed": "Status changed",
  "shipping_order.cancelled": "Cancelled",
  "shipping_order.courier_rejected": "Courier rejected",
  "webhook.test": "Test",
};

export const deliveryTone = { pending: "amber", succeeded: "green", failed: "red" } as const;
