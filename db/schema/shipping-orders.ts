import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import {
  bigserial,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgSequence,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { SHIPPING_STATUSES } from "../../lib/shipping-status";
import { accounts } from "./accounts";
import { apiKeys } from "./api-keys";
import { createdAt, id, instant } from "./columns";
import { courierProfiles } from "./courier-profiles";

export const shippingStatus = pgEnum("shipping_status", SHIPPING_STATUSES);

/** Sandbox shipping numbers: `SBX` + this sequence, zero-padded to 10 digits; never reused. */
export const sandboxShippingNumberSeq = pgSequence("sandbox_shipping_number_seq", {
  startWith: 1,
  minValue: 1,
  maxValue: 9_999_999_999,
});

/**
 * A recipient name as the list's `recipient` search compares it: `ł đ ø` as `l d o`, accents stripped (NFD, the
 * combining marks removed) and then lower case, so "novak" finds "Novák" and "NOVÁK" whatever the database's
 * locale (the accents go before `lower`, which a `C` locale applies to ASCII only). Built from immutable functions
 * without `unaccent`, whose rules differ by installation; the trigram index below is on this very expression, and
 * the search folds its text with it too, so both sides always agree.
 */
export const foldedRecipientName = (name: AnyColumn | SQL) =>
  sql`lower(regexp_replace(normalize(translate(${name}, 'łŁđĐøØ', 'lLdDoO'), NFD), '[\\u0300-\\u036f]', '', 'g'))`;

export const shippingOrders = pgTable(
  "shipping_orders",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    apiKeyId: uuid("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    courier: text("courier").notNull(),
    courierProfileId: uuid("courier_profile_id")
      .notNull()
      .references(() => courierProfiles.id),
    referenceNumber: varchar("reference_number", { length: 64 }).notNull(),
    externalReference: varchar("external_reference", { length: 64 }),
    referenceSource: text("reference_source").notNull(),
    sourceIdentifier: text("source_identifier").notNull(),
    service: text("service").notNull(),
    status: shippingStatus("status").notNull().default("CREATED"),
    codPrice: numeric("cod_price", { precision: 12, scale: 2 }),
    codCurrency: varchar("cod_currency", { length: 3 }),
    variableSymbol: varchar("variable_symbol", { length: 10 }),
    insurancePrice: numeric("insurance_price", { precision: 12, scale: 2 }),
    note: varchar("note", { length: 300 }),
    pickupPoint: text("pickup_point"),
    recipientName: varchar("recipient_name", { length: 100 }).notNull(),
    recipientCompany: varchar("recipient_company", { length: 100 }),
    recipientStreet: varchar("recipient_street", { length: 100 }).notNull(),
    recipientCity: varchar("recipient_city", { length: 60 }).notNull(),
    recipientZip: varchar("recipient_zip", { length: 16 }).notNull(),
    recipientCountry: varchar("recipient_country", { length: 2 }).notNull(),
    recipientEmail: text("recipient_email"),
    recipientPhone: varchar("recipient_phone", { length: 16 }),
    trackingUrl: text("tracking_url"),
    trackingUpdatedAt: instant("tracking_updated_at"),
    /** When the courier's next tracking step is due; null once tracking is final or the order is gone. */
    trackingNextAt: instant("tracking_next_at"),
    /** Tracking polls of a remote courier that failed in a row (the backoff grows with them). */
    trackingFailures: integer("tracking_failures").notNull().default(0),
    /** What the courier's adapter keeps about the shipment (Packeta's packet ids, PPL's batch id), handed back to it. */
    courierData: jsonb("courier_data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    /** Set when the order is deleted or replaced; such an order answers 404 everywhere. */
    deletedAt: instant("deleted_at"),
    replacedById: uuid("replaced_by_id"),
  },
  // The list orders by `created_at desc, id desc` (NULLS FIRST, PostgreSQL's default for desc). Its indexes end
  // in exactly that: drizzle's bare `.desc()` makes NULLS LAST, which cannot serve that order, so every page
  // sorted all of the account's matching orders; and with `id` in every one, the page's ids come from an
  // index-only scan however deep the page (see bench/results.md).
  (t) => [
    // One live order per reference number and source pair. Its leading columns also serve the lookups by
    // reference number (filter, duplicate prevention, predecessors), so no second index is written per order.
    uniqueIndex("shipping_orders_live_reference_key")
      .on(t.accountId, t.referenceNumber, t.referenceSource, t.sourceIdentifier)
      .where(sql`${t.deletedAt} is null`),
    index("shipping_orders_account_created_idx")
      .on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    index("shipping_orders_account_status_idx")
      .on(t.accountId, t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    index("shipping_orders_account_courier_idx")
      .on(t.accountId, t.courier, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    index("shipping_orders_tracking_due_idx")
      .on(t.accountId, t.trackingNextAt)
      .where(sql`${t.deletedAt} is null and ${t.trackingNextAt} is not null`),
    // The tracking worker's scan across accounts, one courier at a time: its earliest due orders first.
    index("shipping_orders_tracking_due_courier_idx")
      .on(t.courier, t.trackingNextAt)
      .where(sql`${t.deletedAt} is null and ${t.trackingNextAt} is not null`),
    // The source-pair filters: referenceSource alone or with sourceIdentifier use the first, sourceIdentifier
    // alone the second.
    index("shipping_orders_account_source_pair_idx")
      .on(t.accountId, t.referenceSource, t.sourceIdentifier, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    index("shipping_orders_account_source_identifier_idx")
      .on(t.accountId, t.sourceIdentifier, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    // Whether an inserted order replaced another (statistics' `replaced`, counted by a trigger): few rows.
    index("shipping_orders_replaced_by_idx")
      .on(t.replacedById)
      .where(sql`${t.replacedById} is not null`),
    index("shipping_orders_account_profile_idx")
      .on(t.accountId, t.courierProfileId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    // The list's `recipient` search, `folded name LIKE '%text%'`: a trigram GIN index (pg_trgm, as for pickup-point
    // search, migration 0022); the search's minimum of 3 characters is one trigram. The migration creates it only
    // where pg_trgm exists: without it the same query answers by a scan of the account's orders.
    index("shipping_orders_recipient_search_idx")
      .using("gin", sql`(${foldedRecipientName(t.recipientName)}) gin_trgm_ops`)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const parcels = pgTable(
  "parcels",
  {
    id: id(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => shippingOrders.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    weight: numeric("weight", { precision: 8, scale: 3 }).notNull(),
    length: numeric("length", { precision: 8, scale: 2 }),
    width: numeric("width", { precision: 8, scale: 2 }),
    height: numeric("height", { precision: 8, scale: 2 }),
    reference: varchar("reference", { length: 64 }),
    shippingNumber: text("shipping_number").notNull(),
  },
  (t) => [
    uniqueIndex("parcels_order_position_key").on(t.orderId, t.position),
    uniqueIndex("parcels_shipping_number_key").on(t.shippingNumber),
  ],
);

export const trackingEvents = pgTable(
  "tracking_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => shippingOrders.id, { onDelete: "cascade" }),
    time: instant("time").notNull(),
    status: shippingStatus("status").notNull(),
    description: text("description").notNull(),
    location: text("location"),
  },
  (t) => [index("tracking_events_order_idx").on(t.orderId, t.time)],
);

export type ShippingOrderRow = typeof shippingOrders.$inferSelect;
export type ParcelRow = typeof parcels.$inferSelect;
export type TrackingEventRow = typeof trackingEvents.$inferSelect;
