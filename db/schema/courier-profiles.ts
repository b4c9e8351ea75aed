import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, instant } from "./columns";

export const courierProfiles = pgTable(
  "courier_profiles",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    courier: text("courier").notNull(),
    name: varchar("name", { length: 100 }).notNull(),
    service: text("service"),
    isDefault: boolean("is_default").notNull().default(false),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    /**
     * Set when a profile orders used is deleted: it disappears from lists and takes no new orders, while its
     * orders keep the settings their tracking and cancellation need.
     */
    archivedAt: instant("archived_at"),
  },
  (t) => [
    index("courier_profiles_account_idx").on(t.accountId, t.courier),
    // At most one default profile per courier and account.
    uniqueIndex("courier_profiles_one_default_key")
      .on(t.accountId, t.courier)
      .where(sql`${t.isDefault}`),
  ],
);

export type CourierProfileRow = typeof courierProfiles.$inferSelect;
