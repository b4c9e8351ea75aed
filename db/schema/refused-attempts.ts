import { boolean, index, json, pgTable, text, uuid, varchar } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { apiKeys } from "./api-keys";
import { createdAt, id } from "./columns";

/**
 * A create attempt the courier refused (COURIER_REJECTED) or did not answer (COURIER_TIMEOUT,
 * COURIER_UNAVAILABLE). Nothing else keeps such an order: it is how a partner finds it, fixes it and sends
 * it again. `request` is `json`, not `jsonb`, so the order is shown with its keys as the partner sent them.
 */
export const refusedAttempts = pgTable(
  "refused_attempts",
  {
    id: id(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    apiKeyId: uuid("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    // No foreign key: a create names its validation record before the statement that stores it runs.
    validationResultId: uuid("validation_result_id"),
    courier: text("courier").notNull(),
    courierProfileId: uuid("courier_profile_id"),
    referenceNumber: varchar("reference_number", { length: 64 }).notNull(),
    referenceSource: text("reference_source").notNull(),
    sourceIdentifier: text("source_identifier").notNull(),
    code: text("code").notNull(),
    message: text("message").notNull(),
    /** The request field the courier named (`Recipient.Zip`), when it named one. */
    field: text("field"),
    request: json("request").notNull(),
    /**
     * The request reached the courier and its answer never came (a timeout after sending, a cut connection): the
     * courier may have registered it. Recovery asks the courier where it can (PPL); Packeta has no lookup.
     */
    outcomeUnknown: boolean("outcome_unknown").notNull().default(false),
    /** The courier attempt it came from (no foreign key: attempts are purged), so recovery can settle it. */
    courierAttemptId: uuid("courier_attempt_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("refused_attempts_account_created_idx").on(t.accountId, t.createdAt.desc().nullsFirst()),
    index("refused_attempts_created_idx").on(t.createdAt.desc().nullsFirst()),
    index("refused_attempts_validation_result_idx").on(t.validationResultId),
  ],
);

export type RefusedAttemptRow = typeof refusedAttempts.$inferSelect;
