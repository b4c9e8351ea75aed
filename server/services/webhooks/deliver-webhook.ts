import { and, eq, or, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from "@/db/schema";
import type { DeliveryJob } from "@/server/jobs/queues";
import { recordWebhookDelivery } from "@/server/observability/outbound-calls";
import { recordAudit } from "../audit/record-audit";
import { TEST_EVENT_TYPE } from "../events/event-types";
import { enqueueDeliveries } from "../events/record-events";
import { toEventView } from "../events/to-event-view";
import { postWebhook, type PostOutcome } from "./post-webhook";
import { signedHeaders, signingSecrets } from "./webhook-secret";

export type DeliveryOptions = {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Seconds before each retry; after the last, the delivery is failed. */
  retrySchedule: readonly number[];
  now?: () => Date;
};

/** An endpoint whose every attempt failed for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;

const USER_AGENT = "shipping-order-platform-webhooks/1";

/**
 * One attempt of one delivery, as a pg-boss job. The attempt is claimed first (its counter moves on and the
 * job's id is written), so a stale or duplicate job does nothing. Only pg-boss's retry of this same job after its
 * worker died (the job expired with the claim still held) may make the attempt again, and it does not count it
 * twice. The HTTP call runs with no transaction open; its outcome, the next attempt's job and the endpoint's
 * health are then written together, and the claim is released with them, so that no later run of this job can
 * POST the attempt again.
 */
export async function deliverWebhook(
  db: Db,
  job: { id: string; data: DeliveryJob },
  options: DeliveryOptions,
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const [claimed] = await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`case when ${webhookDeliveries.jobId} = ${job.id} then ${webhookDeliveries.attempts} else ${webhookDeliveries.attempts} + 1 end`,
      jobId: job.id,
      lastAttemptAt: now(),
    })
    .where(
      and(
        eq(webhookDeliveries.id, job.data.deliveryId),
        eq(webhookDeliveries.status, "pending"),
        or(eq(webhookDeliveries.attempts, job.data.attempt), eq(webhookDeliveries.jobId, job.id)),
      ),
    )
    .returning();
  if (!claimed) return;
  const [target] = await db
    .select({ event: events, endpoint: webhookEndpoints })
    .from(events)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, claimed.endpointId))
    .where(eq(events.id, claimed.eventId));
  if (!target) return;
  const { event, endpoint } = target;
  let outcome: PostOutcome;
  if (!endpoint.enabled && event.type !== TEST_EVENT_TYPE) {
    outcome = { ok: false, status: null, durationMs: 0, error: "the endpoint is disabled" };
  } else {
    const body = JSON.stringify(toEventView(event));
    const headers = {
      ...signedHeaders(event.id, body, signingSecrets(endpoint, now()), now()),
      "user-agent": USER_AGENT,
    };
    outcome = await postWebhook(endpoint.url, headers, body, options);
  }
  await db.transaction((tx) => recordOutcome(tx, claimed.id, job.id, endpoint, outcome, options, now()));
  recordWebhookDelivery({
    deliveryId: claimed.id,
    endpointId: endpoint.id,
    outcome: outcome.ok ? "succeeded" : "failed",
    status: outcome.status,
    durationMs: outcome.durationMs,
    lagMs: claimed.attempts === 1 ? now().getTime() - event.createdAt.getTime() : null,
  });
}

async function recordOutcome(
  tx: Tx,
  deliveryId: string,
  jobId: string,
  endpoint: WebhookEndpointRow,
  outcome: PostOutcome,
  options: DeliveryOptions,
  now: Date,
): Promise<void> {
  const [delivery] = await tx
    .select()
    .from(webhookDeliveries)
    // By its primary key: `job_id` has no index, and a scan of every delivery per attempt grows with the table.
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.jobId, jobId),
        eq(webhookDeliveries.status, "pending"),
      ),
    )
    .for("update");
  // Resent meanwhile: the attempt the resend queued owns the delivery now.
  if (!delivery) return;
  const gone = outcome.status === 410;
  const retryIndex = delivery.attempts - delivery.scheduleStart - 1;
  const delay = options.retrySchedule[retryIndex];
  const retry = !outcome.ok && !gone && endpoint.enabled && delay !== undefined;
  await tx
    .update(webhookDeliveries)
    .set({
      status: outcome.ok ? "succeeded" : retry ? "pending" : "failed",
      // The attempt is over: released, so a late run of this job (expired, retried) finds nothing to redo.
      jobId: null,
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
  if (!endpoint.enabled) return;

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
