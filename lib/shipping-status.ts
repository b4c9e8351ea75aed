import type { ShippingStatus } from "@/db/schema";

export const statusLabel: Record<ShippingStatus, string> = {
  CREATED: "Created",
  HANDED_OVER: "Handed over",
  IN_TRANSIT: "In transit",
  OUT_FOR_DELIVERY: "Out for delivery",
  DELIVERED: "Delivered",
  RETURNED: "Returned",
  CANCELLED: "Cancelled",
};

/** In the order a shipment goes through them. */
export const SHIPPING_STATUSES = Object.keys(statusLabel) as ShippingStatus[];

export const statusTone: Record<ShippingStatus, "neutral" | "blue" | "violet" | "amber" | "green" | "red"> = {
  CREATED: "neutral",
  HANDED_OVER: "blue",
  IN_TRANSIT: "blue",
  OUT_FOR_DELIVERY: "violet",
  DELIVERED: "green",
  RETURNED: "amber",
  CANCELLED: "red",
};
