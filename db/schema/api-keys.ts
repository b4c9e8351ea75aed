import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, id, instant } from "./columns";

export const API_KEY_KINDS = ["secret", "publishable"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 100 }).notNull(),
    /** SHA-256 of the full key, hex. The key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** Last four characters of the key, for the masked display `svc_****abcd`. */
    suffix: varchar("suffix", { length: 4 }).notNull(),
    /**
     * `secret` keys are for servers; a `publishable` key (`svc_pk_…`) is safe in a web page: it may only search
     * pickup points, and only from `allowedOrigins` (CORS, and the widget's frame-ancestors).
     */
    kind: text("kind").$type<ApiKeyKind>().notNull().default("secret"),
    /** Exact origins (`https://shop.example`) a publishable key is answered to; empty for a secret key. */
    allowedOrigins: text("allowed_origins")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    permissions: text("permissions").array().notNull(),
    preventDuplicateOrders: boolean("prevent_duplicate_orders").notNull().default(false),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(600),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: instant("last_used_at"),
    revokedAt: instant("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_key").on(t.keyHash),
    index("api_keys_account_active_idx")
      .on(t.accountId, t.createdAt)
      .where(sql`${t.revokedAt} is null`),
    check("api_keys_name_length", sql`char_length(${t.name}) between 1 and 100`),
    check("api_keys_rate_limit_range", sql`${t.rateLimitPerMinute} between 1 and 100000`),
    check("api_keys_kind", sql`${t.kind} in ('secret', 'publishable')`),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
