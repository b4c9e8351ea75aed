import type { Operation } from "@/server/http/operation";
import { operations as apiKeys } from "./api-keys";
import { operations as auditEvents } from "./audit-events";
import { operations as auth } from "./auth";
import { operations as configurations } from "./configurations";
import { operations as courierProfiles } from "./courier-profiles";
import { operations as events } from "./events";
import { operations as health } from "./health";
import { operations as labels } from "./labels";
import { operations as pickupPoints } from "./pickup-points";
import { operations as shippingOrders } from "./shipping-orders";
import { operations as sources } from "./sources";
import { operations as statistics } from "./statistics";
import { operations as webhooks } from "./webhooks";

/** Every operation of the REST API, in the order the document lists them. */
export const operations: Operation[] = [
  ...shippingOrders,
  ...labels,
  ...configurations,
  ...pickupPoints,
  ...auth,
  ...apiKeys,
  ...sources,
  ...courierProfiles,
  ...auditEvents,
  ...events,
  ...statistics,
  ...webhooks,
  ...health,
];
