import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { instant } from "./columns";

/**
 * Token buckets shared by every app instance: one row per limited subject (`key:<api key id>`,
 * `signin-email:<email>`, `signin-ip:<ip>`), refilled continuously at `limit` tokens a minute.
 * UNLOGGED (migration 0003; drizzle cannot declare it): written on every request, it must not wait for a WAL
 * flush, and losing it in a crash only refills the buckets.
 */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  subject: text("subject").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  /** Whether the last request was let through: returned by the same statement that took the tokens. */
  allowed: boolean("allowed").notNull(),
  updatedAt: instant("updated_at").notNull(),
});

/** Stored answers of create requests that carried an `Idempotency-Key`, kept 24 hours. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** Null while the first request is still running. */
    responseStatus: integer("response_status"),
    responseContentType: text("response_content_type"),
    responseBody: jsonb("response_body"),
    createdAt: instant("created_at")
      .notNull()
      .default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
