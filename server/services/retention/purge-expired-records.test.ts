import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import { getDb, rowsOf } from "@/db/client";
import { idempotencyKeys, rateLimitBuckets, refusedAttempts, validationResults } from "@/db/schema";
import { QUEUES } from "@/server/jobs/queues";
import { startWorker, workerOptionsFromEnv, type RunningWorker } from "@/server/jobs/worker";
import { pollUntil } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";

const sandbox = { params: { courier_id: "sandbox" } };
const DAY = "interval '1 day'";

let worker: RunningWorker;
beforeAll(async () => {
  worker = await startWorker(await getDb(), { ...workerOptionsFromEnv(), pollingSeconds: 0.5, maintenanceSeconds: 1 });
});
afterAll(async () => {
  await worker?.stop();
});

/** Two validation results (validate, and the one inside create), a refused attempt and a stored idempotent answer. */
async function records(partner: Partner, reference: string) {
  const validated = await as(partner)(validate.POST, "/api/v2/couriers/sandbox/shipping-orders/validate", {
    body: order({ ReferenceNumber: reference }),
    ...sandbox,
  });
  expect(validated.status).toBe(200);
  const refused = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
    body: order({ ReferenceNumber: `COURIER-FAIL-${reference}` }),
    headers: { "idempotency-key": `key-${reference}` },
    ...sandbox,
  });
  expect(refused.status).toBe(200);
}

const counts = async (accountId: string) => {
  const db = await getDb();
  const [v] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(validationResults)
    .where(eq(validationResults.accountId, accountId));
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(refusedAttempts)
    .where(eq(refusedAttempts.accountId, accountId));
  const [k] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.accountId, accountId));
  return { validationResults: v!.n, refusedAttempts: r!.n, idempotentAnswers: k!.n };
};

describe("retention: the hourly clean-up job", () => {
  it("removes validation results and refused attempts after 90 days, idempotent answers after 24 hours, idle buckets", async () => {
    const db = await getDb();
    const partner = await createPartner();
    await records(partner, "OLD");
    // The records of OLD age past their retention: 91 days (the idempotent answer 25 hours).
    await db.execute(
      sql`update validation_results set created_at = now() - 91 * ${sql.raw(DAY)} where account_id = ${partner.accountId}`,
    );
    await db.execute(
      sql`update refused_attempts set created_at = now() - 91 * ${sql.raw(DAY)} where account_id = ${partner.accountId}`,
    );
    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where account_id = ${partner.accountId}`,
    );
    await records(partner, "NEW");
    // Kept: 89 days old, 23 hours old.
    await db.execute(
      sql`update validation_results set created_at = now() - 89 * ${sql.raw(DAY)} where account_id = ${partner.accountId} and reference_number = 'COURIER-FAIL-NEW'`,
    );
    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '23 hours' where account_id = ${partner.accountId} and key = 'key-NEW'`,
    );
    const idle = `test-idle:${partner.accountId}`;
    const busy = `test-busy:${partner.accountId}`;
    await db.insert(rateLimitBuckets).values([
      { subject: idle, tokens: 1, allowed: true, updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) },
      { subject: busy, tokens: 1, allowed: true, updatedAt: new Date() },
    ]);
    expect(await counts(partner.accountId)).toEqual({ validationResults: 4, refusedAttempts: 2, idempotentAnswers: 2 });

    await worker.boss.send(QUEUES.eventsCleanup, {});
    const left = await pollUntil(
      () => counts(partner.accountId),
      (c) => c.validationResults === 2,
    );
    expect(left).toEqual({ validationResults: 2, refusedAttempts: 1, idempotentAnswers: 1 });
    const kept = await db
      .select({ referenceNumber: validationResults.referenceNumber })
      .from(validationResults)
      .where(eq(validationResults.accountId, partner.accountId));
    expect(kept.map((r) => r.referenceNumber).sort()).toEqual(["COURIER-FAIL-NEW", "NEW"]);
    const buckets = rowsOf<{ subject: string }>(
      await db.execute(sql`select subject from rate_limit_buckets where subject in (${idle}, ${busy})`),
    );
    expect(buckets.map((b) => b.subject)).toEqual([busy]);
  });
});
