import { boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, instant } from "./columns";
import { shippingOrders } from "./shipping-orders";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/** One order of a create attempt, as recovery needs it to adopt the shipment (see recover-attempts.ts). */
export type AttemptOrder = {
  /** The validated order (OrderRequest), its source pair and service. */
  order: Record<string, unknown>;
  referenceSource: string;
  sourceIdentifier: string;
  service: string;
  /** What the courier was sent (ShipmentRequest). */
  request: Record<string, unknown>;
};

/** The courier's answer for one order of an attempt, written the moment it arrived (before the orders commit). */
export type AttemptAnswer = {
  referenceNumber: string;
  shippingNumbers: string[];
  trackingUrl: string | null;
  courierData: Record<string, unknown>;
};

/**
 * A create call to a remote courier, recorded before the call and removed in the transaction that stores its
 * orders (or once its refusals are recorded). A row older than `recoverAfter` belongs to a process that died
 * between the courier's answer and the commit: the recovery job adopts or cancels what the courier registered.
 */
export const courierAttempts = pgTable(
  "courier_attempts",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    apiKeyId: uuid("api_key_id"),
    courier: text("courier").notNull(),
    courierProfileId: uuid("courier_profile_id").notNull(),
    /** Origin of the links in the events of adopted orders. */
    baseUrl: text("base_url").notNull(),
    orders: jsonb("orders").$type<AttemptOrder[]>().notNull(),
    /** Null until the courier answered; then its shipments, so recovery need not look them up. */
    answers: jsonb("answers").$type<AttemptAnswer[]>(),
    /** Set when the request failed after the courier answered (nothing stored): recovery cancels, never adopts. */
    abandoned: boolean("abandoned").notNull().default(false),
    recoverAfter: instant("recover_after").notNull(),
    recoveries: integer("recoveries").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("courier_attempts_recover_after_idx").on(t.recoverAfter)],
);

export type CourierAttemptRow = typeof courierAttempts.$inferSelect;

/** A courier's label for an order, fetched once: every later GET serves it from here. */
export const labelFiles = pgTable(
  "label_files",
  {
    orderId: uuid("order_id")
      .notNull()
      .references(() => shippingOrders.id, { onDelete: "cascade" }),
    format: text("format").notNull(),
    contentType: text("content_type").notNull(),
    body: bytea("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.format] })],
);
