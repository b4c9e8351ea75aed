/** A shipment's statuses, in the order it goes through them (the database's `shipping_status` enum). */
export const SHIPPING_STATUSES = [
  "CREATED",
  "HANDED_OVER",
  "IN_TRANSIT",
  "OUT_FOR_DELIVERY",
  "DELIVERED",
  "RETURNED",
  "CANCELLED",
] as const;

export type ShippingStatus = (typeof SHIPPING_STATUSES)[number];

export const statusLabel: Record<ShippingStatus, string> = {
  CREATED: "Created",
  HANDED_OVER: "Handed over",
  IN_TRANSIT: "In transit",
  OUT_FOR_DELIVERY: "Out for delivery",
  DELIVERED: "Delivered",
  RETURNED: "Returned",
  CANCELLED: "Cancelled",
};

export const statusTone: Record<ShippingStatus, "neutral" | "blue" | "violet" | "amber" | "green" | "red"> = {
  CREATED: "neutral",
  HANDED_OVER: "blue",
  IN_TRANSIT: "blue",
  OUT_FOR_DELIVERY: "violet",
  DELIVERED: "green",
  RETURNED: "amber",
  CANCELLED: "red",
};
