import { index, json, jsonb, pgEnum, pgTable, text, uuid, varchar } from "drizzle-orm/pg-core";
import { VALIDATION_STATUSES } from "../../lib/validation-status";
import { accounts, users } from "./accounts";
import { apiKeys } from "./api-keys";
import { createdAt, id } from "./columns";

export const validationStatus = pgEnum("validation_status", VALIDATION_STATUSES);
export const validationOperation = pgEnum("validation_operation", ["validate", "create"]);

export type ValidationMessageRecord = {
  code: string;
  severity: "ERROR" | "WARNING";
  field: string | null;
  message: string;
};

export const validationResults = pgTable(
  "validation_results",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    apiKeyId: uuid("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    operation: validationOperation("operation").notNull(),
    courier: text("courier").notNull(),
    courierProfileId: uuid("courier_profile_id"),
    referenceNumber: varchar("reference_number", { length: 200 }),
    /** The source pair the order named (`api`/`default` when it named none; "" for a missing half), for statistics. */
    referenceSource: text("reference_source").notNull(),
    sourceIdentifier: text("source_identifier").notNull(),
    status: validationStatus("status").notNull(),
    messages: jsonb("messages").$type<ValidationMessageRecord[]>().notNull(),
    // `json` keeps the request as sent (key order included); `jsonb` would reorder its keys.
    requestBody: json("request_body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Both lists order by `created_at desc, id desc` (NULLS FIRST): a bare `.desc()` (NULLS LAST) cannot serve it.
    index("validation_results_account_created_idx").on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("validation_results_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export type ValidationResultRow = typeof validationResults.$inferSelect;
