import { randomUUID } from "node:crypto";
import { retryWhileUnavailable } from "@/db/connection-errors";
import { and, eq, sql } from "drizzle-orm";
import { queryRows, type Db, type Executor, type Tx } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from "@/db/schema";
import type { DeliveryJob } from "@/server/queue/queues";
import { logger } from "@/server/observability/logger";
import { UNRECORDED_OUTCOME } from "./unrecorded-outcome";
import { recordWebhookDelivery } from "@/server/observability/outbound-calls";
import { recordAudit } from "../audit/record-audit";
import { TEST_EVENT_TYPE } from "../events/event-types";
import { enqueueDeliveries } from "../events/record-events";
import { toEventView } from "../events/to-event-view";
import type { Resolver } from "./check-target";
import { postWebhook, type PostOutcome } from "./post-webhook";
import { signedHeaders, signingSecrets } from "./webhook-secret";

export type DeliveryOptions = {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Seconds before each retry; after the last, the delivery is failed. */
  retrySchedule: readonly number[];
  now?: () => Date;
  /** Host resolution (check-target.ts `resolveHost` unless a test gives its own). */
  resolve?: Resolver;
};

/** An endpoint whose every attempt failed for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;

const USER_AGENT = "shipping-order-platform-webhooks/1";

/**
 * A claimed attempt's lease: its POST's timeout and time to read its target before and to record its outcome
 * after. The POST is aborted `RECORD_MARGIN_MS` before the lease ends, so its outcome is written while the lease
 * still holds; an attempt whose worker died is counted failed by the sweep only after the lease (and its grace).
 */
export const LEASE_MARGIN_MS = 15_000;
const RECORD_MARGIN_MS = 5_000;
export const attemptLeaseMs = (timeoutMs: number) => timeoutMs + LEASE_MARGIN_MS;

/**
 * What became of one job: nothing to do (stale, duplicate or gone), refused because its endpoint had its cap of
 * attempts claimed already (nothing written, the job not completed: the caller hands it back), or the attempt it
 * made and how it went.
 */
export type DeliveryResult =
  | { claimed: false; refused?: false }
  | { claimed: false; refused: true; endpointId: string }
  | { claimed: true; endpointId: string; outcome: PostOutcome };

/** The advisory lock class of an endpoint's claims (the two-key form: never shares a key with one-key locks). */
export const ENDPOINT_CLAIM_LOCK_CLASS = 27_200;

/**
 * One attempt of one delivery, as a pg-boss job; each scheduled attempt is POSTed at most once.
 *
 * The claim is one UPDATE that moves `attempts` from the number the job carries to the next and writes a fresh
 * random token (the run's fencing token, in `job_id`) and the lease's end, computed here from this worker's own
 * timeout. A job whose attempt was already claimed does nothing but complete: a duplicate job, a job made stale
 * by a resend, and pg-boss's retry of this very job (an expired run that may still be POSTing keeps the same job
 * id, and pg-boss never stops it, timgit/pg-boss#555): none of them can claim again, so none of them POSTs.
 *
 * The POST runs with no transaction open, is skipped if the lease has run out meanwhile, and is aborted before
 * the lease ends. Its outcome is written only while the token is still the delivery's (a resend, or the sweep
 * after the lease ended, took the attempt over otherwise), and `complete` (the pump's: it completes the pg-boss
 * job) runs in the same transaction. Whatever throws after the claim leaves the attempt claimed: no retry of the
 * job can make it again; the sweep counts it failed once its lease ended and schedules the next one.
 */
export async function deliverWebhook(
  db: Db,
  job: { id: string; data: DeliveryJob },
  options: DeliveryOptions,
  {
    complete,
    claimed: onClaimed,
    endpointCap,
  }: {
    /** Completes the job; called with the transaction that records the outcome (or when there is nothing to do). */
    complete?: (executor: Executor) => Promise<unknown>;
    /** Called once the attempt is claimed: from then on, nothing may make this job's attempt again. */
    claimed?: () => void;
    /**
     * Attempts to one endpoint claimed at once, by every process sharing the database: the claim is refused (nothing
     * written, the job left to the caller) when the endpoint has that many claimed and under lease. No cap if unset.
     */
    endpointCap?: number;
  } = {},
): Promise<DeliveryResult> {
  const now = options.now ?? (() => new Date());
  const leaseMs = attemptLeaseMs(options.timeoutMs);
  // Taken before the claim is sent: the lease the database writes (its clock, at the claim) ends no earlier.
  const abortAt = Date.now() + leaseMs - RECORD_MARGIN_MS;
  const token = randomUUID();
  const claimAttempt = async (executor: Executor) => {
    const [row] = await executor
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        jobId: token,
        leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`,
        lastAttemptAt: now(),
      })
      .where(
        and(
          eq(webhookDeliveries.id, job.data.deliveryId),
          eq(webhookDeliveries.status, "pending"),
          eq(webhookDeliveries.attempts, job.data.attempt),
        ),
      )
      .returning();
    return row ?? null;
  };
  const claim =
    endpointCap === undefined
      ? await claimAttempt(db)
      : await db.transaction(async (tx) => {
          // The endpoint's claims are serialized by a transaction-scoped lock (no session state: PgBouncer in
          // transaction mode), so the count below sees every claim committed before this one and no other can commit
          // until this one does: processes racing for one endpoint cannot make cap + 1. The lock is taken in a
          // statement of its own, before the count's (a statement's snapshot is taken when it starts).
          const [row] = await queryRows<{ endpointId: string }>(tx, LOCK_ENDPOINT, [job.data.deliveryId]);
          if (!row) return null;
          const [live] = await queryRows<{ n: number; claimable: boolean }>(tx, LIVE_CLAIMS, [
            row.endpointId,
            job.data.deliveryId,
            job.data.attempt,
          ]);
          if (live!.claimable && live!.n >= endpointCap) return { refused: true as const, endpointId: row.endpointId };
          return claimAttempt(tx);
        });
  if (claim && "refused" in claim) return { claimed: false, refused: true, endpointId: claim.endpointId };
  const claimed = claim;
  if (!claimed) {
    await complete?.(db);
    return { claimed: false };
  }
  onClaimed?.();
  const [target] = await db
    .select({ event: events, endpoint: webhookEndpoints })
    .from(events)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, claimed.endpointId))
    .where(eq(events.id, claimed.eventId));
  if (!target) {
    // Deleted meanwhile (the delivery went with its endpoint or event).
    await complete?.(db);
    return { claimed: false };
  }
  const { event, endpoint } = target;
  let outcome: PostOutcome;
  if (!endpoint.enabled && event.type !== TEST_EVENT_TYPE) {
    outcome = { ok: false, status: null, durationMs: 0, error: "the endpoint is disabled" };
  } else if (Date.now() + options.timeoutMs > abortAt) {
    // Too little of the lease is left for a whole attempt (reading the target stalled): not POSTed at all.
    outcome = {
      ok: false,
      status: null,
      durationMs: 0,
      error: "not sent: the attempt's lease ran out before its POST",
    };
  } else {
    const body = JSON.stringify(toEventView(event));
    const headers = {
      ...signedHeaders(event.id, body, signingSecrets(endpoint, now()), now()),
      "user-agent": USER_AGENT,
    };
    const lease = AbortSignal.timeout(Math.max(1, abortAt - Date.now()));
    outcome = await postWebhook(endpoint.url, headers, body, { ...options, signal: lease });
  }
  // The outcome is known only to this run: a backend terminated or a database restart while writing it must not
  // turn a delivered attempt into an unknown one (the sweep would count it failed and POST the event again), so
  // the write is retried until the lease ends. A retry after a commit whose answer was lost finds the token gone
  // and writes nothing twice.
  await retryWhileUnavailable(
    () =>
      db.transaction(async (tx) => {
        await recordOutcome(tx, claimed.id, token, endpoint, outcome, options, now());
        await complete?.(tx);
      }),
    abortAt + RECORD_MARGIN_MS - 1000,
  ).catch((error: unknown) => {
    // The database would not take the outcome for the whole lease: the sweep counts the attempt failed and the next
    // one follows the schedule, so a receiver that answered gets the event again (at least once). Said with the
    // event's id (the receiver's `webhook-id`), so a duplicate can be traced to it (the invariant suite reads it).
    logger.error(
      { err: error, deliveryId: claimed.id, webhookId: event.id, endpointId: endpoint.id, answered: outcome.status },
      UNRECORDED_OUTCOME,
    );
    throw error;
  });
  recordWebhookDelivery({
    deliveryId: claimed.id,
    endpointId: endpoint.id,
    outcome: outcome.ok ? "succeeded" : "failed",
    status: outcome.status,
    durationMs: outcome.durationMs,
    lagMs: claimed.attempts === 1 ? now().getTime() - event.createdAt.getTime() : null,
  });
  return { claimed: true, endpointId: endpoint.id, outcome };
}

async function recordOutcome(
  tx: Tx,
  deliveryId: string,
  token: string,
  endpoint: WebhookEndpointRow,
  outcome: PostOutcome,
  options: DeliveryOptions,
  now: Date,
): Promise<void> {
  // The endpoint's row is locked before its delivery's, the order in which deleting an endpoint takes them (its row,
  // then its deliveries by the cascade): taken the other way round, the two transactions deadlock. Deleted
  // meanwhile: its deliveries went with it, there is nothing to record. Its `enabled` is read under the lock, not
  // from before the POST: an endpoint disabled during the attempt gets no retry.
  const [current] = await tx
    .select({ enabled: webhookEndpoints.enabled })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpoint.id))
    .for("no key update");
  if (!current) return;
  const [delivery] = await tx
    .select()
    .from(webhookDeliveries)
    // By its primary key: `job_id` has no index, and a scan of every delivery per attempt grows with the table.
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.jobId, token),
        eq(webhookDeliveries.status, "pending"),
      ),
    )
    .for("update");
  // Fenced off: resent meanwhile (the attempt the resend queued owns the delivery now), or the lease ended and the
  // sweep counted this attempt failed and scheduled the next. Either way this run's outcome is no longer wanted.
  if (!delivery) return;
  const gone = outcome.status === 410;
  const retryIndex = delivery.attempts - delivery.scheduleStart - 1;
  const delay = options.retrySchedule[retryIndex];
  const retry = !outcome.ok && !gone && current.enabled && delay !== undefined;
  await tx
    .update(webhookDeliveries)
    .set({
      status: outcome.ok ? "succeeded" : retry ? "pending" : "failed",
      // The attempt is over: its token and lease are released.
      jobId: null,
      leaseUntil: null,
      responseStatus: outcome.status,
      durationMs: outcome.durationMs,
      lastError: outcome.error,
      nextAttemptAt: retry ? new Date(now.getTime() + delay * 1000) : null,
    })
    .where(eq(webhookDeliveries.id, delivery.id));
  if (retry)
    await enqueueDeliveries(
      tx,
      [{ deliveryId: delivery.id, attempt: delivery.attempts, endpointId: delivery.endpointId }],
      delay,
    );
  if (!current.enabled) return;

  if (outcome.ok) {
    await tx
      .update(webhookEndpoints)
      .set({ lastSuccessAt: now, failureStreak: 0, failingSince: null })
      .where(eq(webhookEndpoints.id, endpoint.id));
    return;
  }
  const [health] = await tx
    .update(webhookEndpoints)
    .set({
      failureStreak: sql`${webhookEndpoints.failureStreak} + 1`,
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning({ failingSince: webhookEndpoints.failingSince, enabled: webhookEndpoints.enabled });
  const failingTooLong = health?.failingSince && now.getTime() - health.failingSince.getTime() >= FAILING_DISABLE_MS;
  if (health?.enabled && (gone || failingTooLong)) {
    const reason = gone ? "The receiver answered 410 Gone." : "Every delivery failed for 5 days.";
    await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await recordAudit(tx, {
      accountId: endpoint.accountId,
      actorUserId: null,
      action: "webhook_endpoint.disabled",
      targetId: endpoint.id,
      details: { reason, deliveryId: delivery.id, responseStatus: outcome.status },
    });
  }
}

// The lock's key is the endpoint's; a delivery's endpoint never changes, so it is read with the lock in one statement.
const LOCK_ENDPOINT = `
  select d.endpoint_id as "endpointId", pg_advisory_xact_lock(${ENDPOINT_CLAIM_LOCK_CLASS}, hashtext(d.endpoint_id::text))
  from webhook_deliveries d where d.id = $1::uuid`;

// Attempts claimed and still under lease (an expired lease's worker is gone: the sweep finishes that attempt), read
// from the partial index on claimed deliveries; and whether this job's attempt is still there to claim (a stale job
// is not refused, it completes as before).
const LIVE_CLAIMS = `
  select
    (select count(*)::int from webhook_deliveries c
     where c.endpoint_id = $1::uuid and c.status = 'pending' and c.job_id is not null and c.lease_until > now()) as n,
    exists (select 1 from webhook_deliveries d
            where d.id = $2::uuid and d.status = 'pending' and d.attempts = $3::int) as claimable`;
