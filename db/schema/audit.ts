import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, id } from "./columns";

/** Who changed what in an account's integration, and from where. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: id(),
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  // The list orders by `created_at desc, id desc` (NULLS FIRST): a bare `.desc()` (NULLS LAST) cannot serve it.
  (t) => [
    index("audit_events_account_created_idx").on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);
