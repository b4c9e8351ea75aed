import { sql } from "drizzle-orm";
import { bigserial, date, index, integer, numeric, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * The figures of `GET /statistics`, one row per account, calendar day in the account's time zone, source pair,
 * courier, courier profile and COD currency. Counters live on the row whose `currency` is "" and COD amounts
 * on the rows of their currency, so one key covers both; COD is the live orders' (an order's removal takes its amount
 * back from its creation day, migration 0025). Triggers (migration 0012) write every change as a row
 * of `statistics_deltas` in the transaction that makes it; the worker folds deltas in here
 * (`compactStatistics`). A query sums both tables, so it is exact whatever the compaction lag.
 */
const figures = {
  accountId: uuid("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  day: date("day", { mode: "string" }).notNull(),
  referenceSource: text("reference_source").notNull(),
  sourceIdentifier: text("source_identifier").notNull(),
  courier: text("courier").notNull(),
  /** Null only for a validation that named no profile. */
  courierProfileId: uuid("courier_profile_id"),
  currency: text("currency").notNull().default(""),
  created: integer("created").notNull().default(0),
  replaced: integer("replaced").notNull().default(0),
  cancelled: integer("cancelled").notNull().default(0),
  refused: integer("refused").notNull().default(0),
  delivered: integer("delivered").notNull().default(0),
  returned: integer("returned").notNull().default(0),
  validationsOk: integer("validations_ok").notNull().default(0),
  validationsWarning: integer("validations_warning").notNull().default(0),
  validationsError: integer("validations_error").notNull().default(0),
  cod: numeric("cod", { precision: 16, scale: 2 }).notNull().default("0"),
};

export const statisticsDaily = pgTable("statistics_daily", figures, (t) => [
  unique("statistics_daily_key")
    .on(t.accountId, t.day, t.referenceSource, t.sourceIdentifier, t.courier, t.courierProfileId, t.currency)
    .nullsNotDistinct(),
]);

/** Appended by the triggers, never updated, so concurrent writers never wait on one another's figures. */
export const statisticsDeltas = pgTable(
  "statistics_deltas",
  { id: bigserial("id", { mode: "number" }).primaryKey(), ...figures },
  (t) => [index("statistics_deltas_account_day_idx").on(t.accountId, t.day)],
);

export const STATISTICS_FIGURES = sql.raw(
  "created, replaced, cancelled, refused, delivered, returned, validations_ok, validations_warning, validations_error, cod",
);
