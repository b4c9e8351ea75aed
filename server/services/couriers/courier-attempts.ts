import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { courierAttempts, type AttemptAnswer, type AttemptOrder } from "@/db/schema";

/**
 * How long after an attempt was recorded a recovery may assume its process died: the create's courier calls
 * end within their timeout (plus the platform's grace), and the commit follows within seconds.
 */
export const recoverAfterMs = (timeoutMs: number) => 2 * timeoutMs + 60_000;

export type AttemptContext = {
  accountId: string;
  apiKeyId: string | null;
  courier: string;
  courierProfileId: string;
  baseUrl: string;
  timeoutMs: number;
};

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
      recoverAfter: new Date(Date.now() + recoverAfterMs(ctx.timeoutMs)),
    })
    .returning({ id: courierAttempts.id });
  return row!.id;
}

/** The courier's shipments, written the moment they arrive, so recovery adopts them without asking the courier. */
export async function recordAnswers(db: Executor, attemptId: string, answers: AttemptAnswer[]): Promise<void> {
  await db.update(courierAttempts).set({ answers }).where(eq(courierAttempts.id, attemptId));
}

/** Done: removed in the transaction that stores the attempt's orders and refusals. */
export async function closeAttempt(db: Executor, attemptId: string): Promise<void> {
  await db.delete(courierAttempts).where(eq(courierAttempts.id, attemptId));
}

/**
 * The request failed after the courier answered and nothing was stored: the shipments must go. Recovery cancels
 * them (now, if the cancels below fail, or whenever it next runs).
 */
export async function abandonAttempt(db: Executor, attemptId: string): Promise<void> {
  await db
    .update(courierAttempts)
    .set({ abandoned: true, recoverAfter: sql`now()` })
    .where(eq(courierAttempts.id, attemptId));
}
