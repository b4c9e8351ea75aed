import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import {
  courierAttempts,
  type AttemptAnswer,
  type AttemptOrder,
  type AttemptState,
  type UnknownOrder,
} from "@/db/schema";

/**
 * How long after an attempt was recorded a recovery may assume its process died: the create's courier calls
 * end within their timeout (plus the platform's grace), and the commit follows within seconds. With the longest
 * timeout (60 s) that is 3 minutes, and the recovery job runs every minute: within the contract's 5 minutes.
 */
export const recoverAfterMs = (timeoutMs: number) => 2 * timeoutMs + 60_000;

/** A terminal attempt is never claimed: its `recover_after` moves to the end of time. */
const NEVER = sql`'infinity'::timestamptz`;

export type AttemptContext = {
  accountId: string;
  apiKeyId: string | null;
  courier: string;
  courierProfileId: string;
  baseUrl: string;
  timeoutMs: number;
};

/**
 * The attempt moved by another party first (recovery claimed it, or the original request already settled it): the
 * caller must not act on its shipments. Thrown inside the transaction that would have stored them, so it rolls back.
 */
export class AttemptTakenOver extends Error {
  constructor(
    readonly attemptId: string,
    readonly expected: AttemptState,
  ) {
    super(`courier attempt ${attemptId} is no longer ${expected}`);
    this.name = "AttemptTakenOver";
  }
}

/** Recorded (committed on its own) before a remote courier is called: the platform's write-ahead of the call. */
export async function recordAttempt(db: Executor, ctx: AttemptContext, orders: AttemptOrder[]): Promise<string> {
  const [row] = await db
    .insert(courierAttempts)
    .values({
      accountId: ctx.accountId,
      apiKeyId: ctx.apiKeyId,
      courier: ctx.courier,
      courierProfileId: ctx.courierProfileId,
      baseUrl: ctx.baseUrl,
      orders,
      state: "open",
      recoverAfter: new Date(Date.now() + recoverAfterMs(ctx.timeoutMs)),
    })
    .returning({ id: courierAttempts.id });
  return row!.id;
}

/**
 * The courier's shipments, written the moment they arrive (while the attempt is still the request's own), so
 * recovery adopts them without asking the courier. False when recovery has claimed the attempt meanwhile.
 */
export async function recordAnswers(
  db: Executor,
  attemptId: string,
  answers: AttemptAnswer[],
  unknownOrders: UnknownOrder[],
): Promise<boolean> {
  const rows = await db
    .update(courierAttempts)
    .set({ answers, unknownOrders })
    .where(and(eq(courierAttempts.id, attemptId), eq(courierAttempts.state, "open")))
    .returning({ id: courierAttempts.id });
  return rows.length > 0;
}

/**
 * The original request's end, in the transaction that stores its orders and refusals: `open` → `closed` (every
 * outcome known), or → `unknown` (some orders' outcomes unknown: recovery asks the courier at once). Throws
 * `AttemptTakenOver` when the attempt is no longer `open` (recovery claimed it): the transaction rolls back and
 * recovery, which now owns the shipments, adopts or cancels them.
 */
export async function settleAttempt(db: Executor, attemptId: string, unknownOrders: UnknownOrder[]): Promise<void> {
  const rows = await db
    .update(courierAttempts)
    .set(
      unknownOrders.length > 0
        ? { state: "unknown", unknownOrders, recoverAfter: sql`now()` }
        : { state: "closed", closedAt: sql`now()`, recoverAfter: NEVER },
    )
    .where(and(eq(courierAttempts.id, attemptId), eq(courierAttempts.state, "open")))
    .returning({ id: courierAttempts.id });
  if (rows.length === 0) throw new AttemptTakenOver(attemptId, "open");
}

/**
 * The request failed after the courier answered and nothing was stored: `open` → `abandoned`, so the shipments go
 * (the caller cancels them now; recovery cancels whatever is left). False when the attempt was not `open` (recovery
 * claimed it): then the caller must not cancel, recovery owns the shipments.
 */
export async function abandonAttempt(db: Executor, attemptId: string): Promise<boolean> {
  const rows = await db
    .update(courierAttempts)
    .set({ state: "abandoned", recoverAfter: sql`now()` })
    .where(and(eq(courierAttempts.id, attemptId), eq(courierAttempts.state, "open")))
    .returning({ id: courierAttempts.id });
  return rows.length > 0;
}

/** The abandoned attempt's shipments were all cancelled by the request itself: `abandoned` → `closed`. */
export async function closeAbandonedAttempt(db: Executor, attemptId: string): Promise<void> {
  await db
    .update(courierAttempts)
    .set({ state: "closed", closedAt: sql`now()`, recoverAfter: NEVER })
    .where(and(eq(courierAttempts.id, attemptId), eq(courierAttempts.state, "abandoned")));
}

/** States recovery may claim from (once `recover_after` has passed); `recovering` with a lapsed lease too. */
export const CLAIMABLE: AttemptState[] = ["open", "unknown", "abandoned", "recovering"];

/**
 * Recovery's end of a claim: `recovering` → `recovered` or `given_up`, only while the claim is still this one
 * (`recoveries` is the claim's token). False when another recovery took the attempt over after this lease lapsed.
 */
export async function finishRecovery(
  db: Executor,
  attemptId: string,
  token: number,
  state: "recovered" | "given_up",
  /** The answers the claim acted on: answers handed over since (handOverAnswers) make it retry instead. */
  answersSeen?: AttemptAnswer[] | null,
): Promise<boolean> {
  const rows = await db
    .update(courierAttempts)
    .set({ state, closedAt: sql`now()`, recoverAfter: NEVER })
    .where(
      and(
        eq(courierAttempts.id, attemptId),
        eq(courierAttempts.state, "recovering"),
        eq(courierAttempts.recoveries, token),
        answersSeen === undefined
          ? undefined
          : answersSeen === null
            ? isNull(courierAttempts.answers)
            : sql`${courierAttempts.answers} = ${JSON.stringify(answersSeen)}::jsonb`,
      ),
    )
    .returning({ id: courierAttempts.id });
  return rows.length > 0;
}

/** A claim that could not finish (the courier failed, or is still processing): asked again after `delayMs`. */
export async function retryRecoveryLater(db: Executor, attemptId: string, token: number, delayMs: number) {
  await db
    .update(courierAttempts)
    .set({ recoverAfter: sql`now() + ${`${Math.round(delayMs)} milliseconds`}::interval` })
    .where(
      and(
        eq(courierAttempts.id, attemptId),
        eq(courierAttempts.state, "recovering"),
        eq(courierAttempts.recoveries, token),
      ),
    );
}

/**
 * The original request found its attempt claimed by recovery after the courier answered: its answers are handed to
 * the claim (unless recovery recorded its own), so the recovery adopts or cancels them. False when the attempt is
 * settled already (recovery finished without them): then the request cancels what no order holds.
 */
export async function handOverAnswers(
  db: Executor,
  attemptId: string,
  answers: AttemptAnswer[],
  unknownOrders: UnknownOrder[],
): Promise<boolean> {
  const rows = await db
    .update(courierAttempts)
    .set({
      answers: sql`coalesce(${courierAttempts.answers}, ${JSON.stringify(answers)}::jsonb)`,
      unknownOrders: sql`coalesce(${courierAttempts.unknownOrders}, ${JSON.stringify(unknownOrders)}::jsonb)`,
    })
    .where(and(eq(courierAttempts.id, attemptId), eq(courierAttempts.state, "recovering")))
    .returning({ id: courierAttempts.id });
  return rows.length > 0;
}

/** Terminal attempts older than this are purged (they are a record only). */
export const ATTEMPT_RETENTION_DAYS = 30;

/** Removes terminal attempts past their retention, in one bounded statement. */
export async function purgeSettledAttempts(db: Executor, now = new Date(), limit = 1000): Promise<void> {
  const cutoff = new Date(now.getTime() - ATTEMPT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  await db.execute(sql`
    delete from courier_attempts where id in (
      select id from courier_attempts where closed_at < ${cutoff.toISOString()}::timestamptz
      order by closed_at limit ${limit})`);
}
