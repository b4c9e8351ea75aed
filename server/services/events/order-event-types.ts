/** The order events partners can subscribe to and read from the feed (no imports: the dashboard's client code uses it). */
export const ORDER_EVENT_TYPES = [
  "shipping_order.created",
  "shipping_order.status_changed",
  "shipping_order.cancelled",
  "shipping_order.courier_rejected",
] as const;

export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];
