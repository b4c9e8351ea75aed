export const API_KEY_PERMISSIONS = [
  "shipping-orders:read",
  "shipping-orders:write",
  "shipping-orders:validate",
  "labels:read",
  "configurations:read",
  "events:read",
  "statistics:read",
] as const;

export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

export const permissionDescriptions: Record<ApiKeyPermission, string> = {
  "shipping-orders:read": "List shipping orders and read their tracking",
  "shipping-orders:write": "Create and delete shipping orders",
  "shipping-orders:validate": "Validate orders without creating them",
  "labels:read": "Download shipping labels",
  "configurations:read": "Read couriers, sources and courier profiles",
  "events:read": "Read the feed of order events",
  "statistics:read": "Read statistics by source pair",
};
