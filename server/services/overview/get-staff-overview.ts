import { and, count, eq, gte, sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db/client";
import { accounts, refusedAttempts, validationResults } from "@/db/schema";
import { AppError } from "@/server/errors";
import { formatMillis } from "@/server/time";
import type { Actor } from "../authorization";
import { listRefusedAttempts, type RefusedAttemptSummary } from "../refused-attempts/list-refused-attempts";
import { isOpenRefusal } from "../refused-attempts/resolving-order";
import { listValidationResults, type ValidationResultSummary } from "../validation-results/list-validation-results";

/** Consecutive failed attempts, newest first, that make an account worth a look. */
export const FAILURE_STREAK = 3;
const RECENT = 5;

export type FailureStreak = { accountId: string; accountName: string; failures: number; lastFailure: string };

export type StaffOverview = {
  validationErrorsLast7Days: number;
  refusalsLast7Days: number;
  recentValidationErrors: ValidationResultSummary[];
  recentRefusals: RefusedAttemptSummary[];
  /** Accounts whose latest attempts (validations and creates, last 7 days) all failed, longest streak first. */
  failureStreaks: FailureStreak[];
};

/** What platform staff land on: the failures across every account, and the accounts that keep failing. */
export async function getStaffOverview(db: Executor, actor: Actor, now = new Date()): Promise<StaffOverview> {
  if (!actor.isStaff) throw new AppError("forbidden", "Only staff can see every account.");
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  const [[errors], [refusals], recentValidationErrors, recentRefusals, streaks] = await Promise.all([
    db
      .select({ n: count() })
      .from(validationResults)
      .where(and(eq(validationResults.status, "ERROR"), gte(validationResults.createdAt, weekAgo))),
    db
      .select({ n: count() })
      .from(refusedAttempts)
      .where(and(gte(refusedAttempts.createdAt, weekAgo), isOpenRefusal)),
    listValidationResults(db, actor, { status: ["ERROR"], from: weekAgo, pageSize: RECENT }),
    listRefusedAttempts(db, actor, { pageSize: RECENT }),
    failureStreaks(db, weekAgo),
  ]);
  return {
    validationErrorsLast7Days: errors?.n ?? 0,
    refusalsLast7Days: refusals?.n ?? 0,
    recentValidationErrors: recentValidationErrors.items,
    recentRefusals: recentRefusals.items,
    failureStreaks: streaks,
  };
}

/**
 * An attempt failed when its validation found errors or the courier refused the create it led to. The streak
 * is the run of failures from an account's newest attempt back to its latest success.
 */
async function failureStreaks(db: Executor, since: Date): Promise<FailureStreak[]> {
  const rows = rowsOf<{ account_id: string; account_name: string; failures: number; last_failure: Date | string }>(
    await db.execute(sql`
      with attempts as (
        select v.account_id, v.created_at,
               (v.status = 'ERROR' or r.id is not null) as failed,
               row_number() over (partition by v.account_id order by v.created_at desc, v.id desc) as position
        from ${validationResults} v
        left join ${refusedAttempts} r on r.validation_result_id = v.id
        where v.created_at >= ${since.toISOString()}::timestamptz
      ), streaks as (
        select account_id,
               coalesce(min(position) filter (where not failed) - 1, count(*))::int as failures,
               max(created_at) filter (where failed) as last_failure
        from attempts
        group by account_id
      )
      select s.account_id, a.name as account_name, s.failures, s.last_failure
      from streaks s join ${accounts} a on a.id = s.account_id
      where s.failures >= ${FAILURE_STREAK}
      order by s.failures desc, s.last_failure desc
      limit 20`),
  );
  return rows.map((r) => ({
    accountId: r.account_id,
    accountName: r.account_name,
    failures: Number(r.failures),
    lastFailure: formatMillis(new Date(r.last_failure)),
  }));
}
