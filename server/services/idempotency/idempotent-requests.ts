import { and, eq, lt, or, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { AppError } from "@/server/errors";

export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first request that has not finished in this long is taken to have died with its process. */
const ABANDONED_AFTER_MINUTES = 5;

export type StoredResponse = { status: number; contentType: string; body: unknown };

export type IdempotencyStart = { kind: "new" } | { kind: "replay"; response: StoredResponse };

/**
 * Claims an `Idempotency-Key` for the account, or answers what the first request with it answered.
 * The same key with another request → 422; while the first is still running → 409.
 */
export async function beginIdempotentRequest(
  db: Executor,
  accountId: string,
  key: string,
  fingerprint: string,
): Promise<IdempotencyStart> {
  // Expired and abandoned claims make way first, so the insert below decides who owns the key.
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.accountId, accountId),
        eq(idempotencyKeys.key, key),
        or(
          lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`),
          and(
            isNull(idempotencyKeys.responseStatus),
            lt(idempotencyKeys.createdAt, sql`now() - make_interval(mins => ${ABANDONED_AFTER_MINUTES})`),
          ),
        ),
      ),
    );
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ accountId, key, fingerprint })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return { kind: "new" };
  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)))
    .limit(1);
  if (!existing) return beginIdempotentRequest(db, accountId, key, fingerprint);
  if (existing.fingerprint !== fingerprint) throw idempotencyRefusals.reused();
  if (existing.responseStatus === null) throw idempotencyRefusals.inProgress();
  return {
    kind: "replay",
    response: {
      status: existing.responseStatus,
      contentType: existing.responseContentType ?? "application/json",
      body: existing.responseBody,
    },
  };
}

/** Stores the answer for replays. */
export async function completeIdempotentRequest(
  db: Executor,
  accountId: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({
      responseStatus: response.status,
      responseContentType: response.contentType,
      responseBody: response.body as object,
    })
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
}

/** Releases the key after a failure the client should retry (5xx), so the retry runs afresh. */
export async function abandonIdempotentRequest(db: Executor, accountId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.accountId, accountId),
        eq(idempotencyKeys.key, key),
        isNull(idempotencyKeys.responseStatus),
      ),
    );
}

/** A key reused for another request, and a key whose first request still runs. */
export const idempotencyRefusals = {
  reused: () =>
    new AppError(
      "unprocessable",
      "This Idempotency-Key was used with a different request; use a new key for a new request.",
      {
        errors: [{ field: "Idempotency-Key", message: "reused with a different request" }],
      },
    ),
  inProgress: () =>
    new AppError("conflict", "A request with this Idempotency-Key is still being processed; retry shortly.", {
      errors: [{ field: "Idempotency-Key", message: "request in progress" }],
      details: { retryAfterSeconds: 1 },
    }),
};
