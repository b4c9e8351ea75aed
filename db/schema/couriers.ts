import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
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
  /** The order's index in `orders` (answers are matched by it: one reference may occur under two source pairs). */
  index?: number;
  referenceNumber: string;
  shippingNumbers: string[];
  trackingUrl: string | null;
  courierData: Record<string, unknown>;
};

/** An order of an attempt whose outcome the original request never learnt (`outcomeUnknown`): recovery asks. */
export type UnknownOrder = {
  /** Its index in `orders`. */
  index: number;
  /** What the adapter said would find it (PPL: `{ batchId }`), or null: a lookup by reference. */
  hint: Record<string, unknown> | null;
};

/**
 * The states of an attempt. Every move is conditional (`UPDATE … WHERE state = <expected> RETURNING`), so the
 * original request and recovery never both act on one attempt:
 * - `open`: recorded before the call; the original request owns it. It moves, in the transaction that stores its
 *   orders and refusals, to `closed` (every outcome known) or `unknown` (some orders' outcomes are unknown:
 *   `unknownOrders`), or, when storing failed after the courier answered, to `abandoned`.
 * - `open` (overdue: its process died), `unknown` and `abandoned` are claimed by recovery: `recovering`, under a
 *   lease (`recoverAfter`) whose token is `recoveries`; `claimedFrom` keeps what it was claimed from.
 * - `recovering` ends `recovered` (adopted and/or cancelled what the courier registered, or found nothing) or
 *   `given_up` (the courier kept failing). Terminal rows are kept a while for the record, then purged.
 */
export const ATTEMPT_STATES = [
  "open",
  "closed",
  "unknown",
  "abandoned",
  "recovering",
  "recovered",
  "given_up",
] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

/**
 * A create call to a remote courier, recorded before the call and moved through `AttemptState` by the original
 * request and the recovery job. An `open` row older than `recoverAfter` belongs to a process that died between
 * the courier's answer and the commit: the recovery job adopts or cancels what the courier registered.
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
    /** See `AttemptState`. `abandoned`: the request failed after the courier answered; recovery cancels, never adopts. */
    state: text("state").$type<AttemptState>().notNull().default("open"),
    /** The state recovery claimed it from (`open`, `unknown` or `abandoned`) while `recovering` and after. */
    claimedFrom: text("claimed_from").$type<AttemptState>(),
    /** With `unknown`: the orders whose outcome the request never learnt. */
    unknownOrders: jsonb("unknown_orders").$type<UnknownOrder[]>(),
    /** When recovery may claim it (or, while `recovering`, when the claim's lease ends); terminal rows: infinity. */
    recoverAfter: instant("recover_after").notNull(),
    /** Recoveries begun: the lease token of a claim (a recovery whose lease passed cannot finish). */
    recoveries: integer("recoveries").notNull().default(0),
    createdAt: createdAt(),
    /** When it reached a terminal state (`closed`, `recovered`, `given_up`). */
    closedAt: instant("closed_at"),
  },
  (t) => [
    index("courier_attempts_recover_after_idx").on(t.recoverAfter),
    index("courier_attempts_closed_at_idx")
      .on(t.closedAt)
      .where(sql`closed_at is not null`),
  ],
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
