import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id } from "./columns";

/** Activated (ReferenceSource, SourceIdentifier) pairs; `api`/`default` is built in and never stored. */
export const sources = pgTable(
  "sources",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    referenceSource: text("reference_source").notNull(),
    sourceIdentifier: text("source_identifier").notNull(),
    name: text("name"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sources_account_pair_key").on(t.accountId, t.referenceSource, t.sourceIdentifier),
    index("sources_account_idx").on(t.accountId, t.createdAt),
  ],
);

export type SourceRow = typeof sources.$inferSelect;
