import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, instant } from "./columns";

/** PostgreSQL's 64-bit transaction id; compared as text-free bigint-like values by the feed's cursor. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * Where the pull feed's positions come from (server/services/events/list-events.ts, `sequenceEvents`): one
 * sequence for every account, drawn from only after the events it numbers have committed.
 */
export const eventFeedPosition = pgSequence("event_feed_position");

/**
 * Order state changes (and endpoint test pings), written in the transaction of the change with no feed
 * position. The pull feed pages by `position`, given after commit by the account's sequencer in (`txId`, `seq`)
 * order, so a cursor never steps over an event that commits later, however long its transaction ran.
 */
export const events = pgTable(
  "events",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    referenceSource: text("reference_source"),
    sourceIdentifier: text("source_identifier"),
    /** The order the event is about (none for courier refusals and test pings); no foreign key: events outlive orders. */
    orderId: uuid("order_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    txId: xid8("tx_id")
      .notNull()
      .default(sql`pg_current_xact_id()`),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /** The event's place in its account's pull feed; null until the sequencer numbers it (after its commit). */
    position: bigint("position", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("events_position_key")
      .on(t.position)
      .where(sql`position is not null`),
    // The feed's read: an account's events after a position, in position order.
    index("events_account_position_idx")
      .on(t.accountId, t.position)
      .where(sql`position is not null`),
    // The sequencer's work: an account's unsequenced events in the order it numbers them.
    index("events_unsequenced_idx")
      .on(t.accountId, t.txId, t.seq)
      .where(sql`position is null`),
    index("events_order_idx").on(t.orderId, t.createdAt),
    index("events_created_idx").on(t.createdAt),
  ],
);

/**
 * Per account, the newest feed event the retention purge removed, with its feed position. A client whose `after`
 * cursor is exactly that event read everything before the purge, so its feed continues after that position; any
 * older purged cursor is gone.
 */
export const eventPurgeMarks = pgTable("event_purge_marks", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  eventId: uuid("event_id").notNull(),
  position: bigint("position", { mode: "number" }).notNull(),
});

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    eventTypes: text("event_types").array().notNull(),
    /** Subscribed source pairs; null means every pair of the account. */
    sources: jsonb("sources").$type<{ referenceSource: string; sourceIdentifier: string }[]>(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: instant("previous_secret_expires_at"),
    lastSuccessAt: instant("last_success_at"),
    /** Start of the current run of failed attempts; null after a success. */
    failingSince: instant("failing_since"),
    failureStreak: integer("failure_streak").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_endpoints_account_idx").on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", ["pending", "succeeded", "failed"]);
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatus.enumValues)[number];

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    /** Attempts made so far; a job carries the number it expects, so a stale or duplicate job does nothing. */
    attempts: integer("attempts").notNull().default(0),
    /** Attempts made before the current retry schedule began (a resend starts a fresh one). */
    scheduleStart: integer("schedule_start").notNull().default(0),
    /**
     * The fencing token of the run making the current attempt (a fresh random value per claim, not the pg-boss job's
     * id, which a retry of an expired job keeps): only that run may record the outcome. Null when no attempt runs.
     */
    jobId: uuid("job_id"),
    /**
     * When the current attempt's lease ends (set by the worker that claimed it, from its own timeout): its POST is
     * aborted before then, and an attempt still claimed after it is counted failed by the sweep (its worker died).
     */
    leaseUntil: instant("lease_until"),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms"),
    lastError: text("last_error"),
    nextAttemptAt: instant("next_attempt_at").defaultNow(),
    lastAttemptAt: instant("last_attempt_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(
      t.endpointId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("webhook_deliveries_endpoint_status_idx").on(
      t.endpointId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("webhook_deliveries_event_idx").on(t.eventId),
    // The sweeper's overdue pending deliveries (server/services/webhooks/sweep-stuck-deliveries.ts).
    index("webhook_deliveries_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // Per endpoint, its attempts waiting for a worker: which endpoints have work is read here (delivery-pump.ts).
    index("webhook_deliveries_waiting_idx")
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`status = 'pending' and job_id is null`),
    // Per endpoint, its attempts claimed (running, or their worker died before the lease ended): few at any time.
    // The caps across processes count them (delivery-pump.ts `READY`, deliver-webhook.ts `LIVE_CLAIMS`).
    index("webhook_deliveries_claimed_idx")
      .on(t.endpointId, t.accountId, t.leaseUntil)
      .where(sql`status = 'pending' and job_id is not null`),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
