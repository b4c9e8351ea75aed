import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import { getDb, rowsOf } from "@/db/client";
import { accounts, idempotencyKeys, rateLimitBuckets, refusedAttempts, validationResults } from "@/db/schema";
import { QUEUES } from "@/server/queue/queues";
import { startWorker, workerOptionsFromEnv, type RunningWorker } from "@/server/jobs/worker";
import { pollUntil } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";

const sandbox = { params: { courier_id: "sandbox" } };

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

/** The clean-up runs at this time (the worker's clock stopped there), so that it removes only this test's rows. */
const NOW = new Date("2000-01-01T00:00:00Z");
const before = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

describe("retention: the hourly clean-up job", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("removes validation results and refused attempts after 90 days, idempotent answers after 24 hours, idle buckets", async () => {
    const db = await getDb();
    const partner = await createPartner();
    const account = partner.accountId;
    await records(partner, "OLD");
    await records(partner, "NEW");
    // OLD is past its retention at NOW: 91 days (the idempotent answer 25 hours); NEW is not: 89 days, 23 hours.
    const age = async (table: string, reference: string, hours: number) =>
      db.execute(
        sql`update ${sql.identifier(table)} set created_at = ${before(hours)}::timestamptz
            where account_id = ${account} and reference_number like ${`%${reference}`}`,
      );
    await age("validation_results", "OLD", 91 * 24);
    await age("refused_attempts", "OLD", 91 * 24);
    await age("validation_results", "NEW", 89 * 24);
    await age("refused_attempts", "NEW", 89 * 24);
    await db.execute(
      sql`update idempotency_keys set created_at = case key when 'key-OLD' then ${before(25)}::timestamptz
            else ${before(23)}::timestamptz end where account_id = ${account}`,
    );
    const idle = `test-idle:${account}`;
    const busy = `test-busy:${account}`;
    await db.insert(rateLimitBuckets).values([
      { subject: idle, tokens: 1, allowed: true, updatedAt: new Date(before(2)) },
      { subject: busy, tokens: 1, allowed: true, updatedAt: NOW },
    ]);
    expect(await counts(account)).toEqual({ validationResults: 4, refusedAttempts: 2, idempotentAnswers: 2 });

    // Moving on from NOW (PGlite takes its now() from this clock: a stopped one would never reach a job's start).
    vi.useFakeTimers({ toFake: ["Date"], now: NOW, shouldAdvanceTime: true });
    const id = await worker.boss.send(QUEUES.eventsCleanup, {});
    expect(id).toBeTruthy();
    // The job removes one kind of record after another: the counts are read once it has finished them all.
    const job = await pollUntil(
      () => worker.boss.getJobById(QUEUES.eventsCleanup, id!),
      (j) => j?.state === "completed" || j?.state === "failed",
      { timeoutMs: 30_000 },
    );
    expect(job?.state).toBe("completed");
    const left = await counts(account);
    expect(left).toEqual({ validationResults: 2, refusedAttempts: 1, idempotentAnswers: 1 });
    const kept = await db
      .select({ referenceNumber: validationResults.referenceNumber })
      .from(validationResults)
      .where(eq(validationResults.accountId, account));
    expect(kept.map((r) => r.referenceNumber).sort()).toEqual(["COURIER-FAIL-NEW", "NEW"]);
    const buckets = rowsOf<{ subject: string }>(
      await db.execute(sql`select subject from rate_limit_buckets where subject in (${idle}, ${busy})`),
    );
    expect(buckets.map((b) => b.subject)).toEqual([busy]);
    // The account remembers how far its review records were removed (a statistics rebuild keeps their figures).
    const [mark] = await db
      .select({ until: accounts.reviewPurgedUntil })
      .from(accounts)
      .where(eq(accounts.id, account));
    expect(mark!.until?.toISOString()).toBe(new Date(before(91 * 24)).toISOString());
  });
});
