import { boolean, index, integer, pgEnum, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, id, instant } from "./columns";

export const accounts = pgTable("accounts", {
  id: id(),
  name: text("name").notNull(),
  /** IANA zone whose calendar days the statistics count in (`statistics_daily.day`). */
  timeZone: text("time_zone").notNull().default("Europe/Prague"),
  /** Set when the time zone changed and the account's statistics are being rebuilt for it; null once done. */
  statisticsRebuildSince: instant("statistics_rebuild_since"),
  /**
   * The newest validation result or refused attempt of the account that retention removed: a statistics rebuild keeps
   * the counted figures of those (they can no longer be recounted) for the days up to it.
   */
  reviewPurgedUntil: instant("review_purged_until"),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash").notNull(),
    isStaff: boolean("is_staff").notNull().default(false),
    /**
     * Carried by every dashboard session and access token issued to the user; raising it (a password change,
     * `npm run admin -- user:password`) ends all of them at their next use.
     */
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`)],
);

export const membershipRole = pgEnum("membership_role", ["owner", "member"]);

export const memberships = pgTable(
  "memberships",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    role: membershipRole("role").notNull().default("member"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.accountId] }), index("memberships_account_idx").on(t.accountId)],
);

export type Account = typeof accounts.$inferSelect;
export type User = typeof users.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type MembershipRole = (typeof membershipRole.enumValues)[number];
