/** The order events partners can subscribe to and read from the feed. */
export const ORDER_EVENT_TYPES = [
  "shipping_order.created",
  "shipping_order.status_changed",
  "shipping_order.cancelled",
  "shipping_order.courier_rejected",
] as const;

export const eventTypeLabels: Record<string, string> = {
  "shipping_order.created": "Created",
  "shipping_order.status_changed": "Status changed",
  "shipping_order.cancelled": "Cancelled",
  "shipping_order.courier_rejected": "Courier rejected",
  "webhook.test": "Test",
};

export const deliveryTone = { pending: "amber", succeeded: "green", failed: "red" } as const;
