import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id } from "./columns";

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
