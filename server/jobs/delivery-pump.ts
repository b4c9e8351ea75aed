import { eq } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { queryRows, type Db } from "@/db/client";
import { retryWhileUnavailable } from "@/db/connection-errors";
import { webhookDeliveries } from "@/db/schema";
import { enqueueDeliveries } from "@/server/services/events/record-events";
import { deliverWebhook, type DeliveryOptions } from "@/server/services/webhooks/deliver-webhook";
import { runInRequest } from "@/server/observability/request-context";
import { DELIVERY_QUEUE_PREFIX, QUEUES, type DeliveryJob } from "@/server/queue/queues";
import { jobSql } from "@/server/queue/sql-adapter";

export type DeliveryPumpOptions = {
  delivery: DeliveryOptions;
  /** Attempts this process runs at once. */
  concurrency: number;
  /** Attempts in flight to one account's endpoints together, across every process sharing the database. */
  perAccount: number;
  /**
   * Attempts in flight to one endpoint, across every process sharing the database (while it answers; one per
   * process while it times out).
   */
  perEndpoint: number;
  pollingSeconds: number;
  log: (message: string, error?: unknown) => void;
};

export type DeliveryPump = {
  /** Attempts in flight now, by account (for tests and metrics). */
  inFlight(): ReadonlyMap<string, number>;
  stop(timeoutMs: number): Promise<void>;
};

/** Attempts in flight at once to an endpoint whose last attempt got no answer within the timeout: one probe. */
const SUSPECT_CAP = 1;

/** How long a run that failed keeps trying to complete or fail its job while the database is unreachable. */
const SETTLE_JOB_FOR_MS = 10_000;

/**
 * Seconds before a job whose claim was refused (its endpoint had its cap claimed by other processes meanwhile) is
 * due again: long enough not to spin on the endpoint, about as long as one slow receiver's answer.
 */
const REFUSED_DELAY_SECONDS = 0.5;

/** Legacy-queue jobs moved to their endpoints' queues per pass. */
const LEGACY_BATCH = 100;

/**
 * An endpoint with attempts due: how many (up to its cap), and the attempts claimed and under lease in any process,
 * to it (`claimed`) and to its account's endpoints together (`accountClaimed`).
 */
type Ready = { endpointId: string; accountId: string; ready: number; claimed: number; accountClaimed: number };
type Slot = { endpointId: string; accountId: string };

/**
 * Webhook attempts, fetched so that no account can hold up another's and no receiver that answers is slowed.
 *
 * Each endpoint has its own pg-boss queue (server/queue/queues.ts). Each pass of the loop asks the database which endpoints
 * have attempts due (one query, `READY`), and shares this process's free slots out round-robin: over accounts
 * first, then over the endpoints of each account, one slot at a time, under three caps: `concurrency` for the
 * process, `perAccount` for one account's endpoints together, `perEndpoint` for one endpoint. Only then is each
 * chosen endpoint's queue fetched (pg-boss `fetch`, as many jobs as it was given slots), and each job runs at once.
 * An endpoint, or an account, at its cap is simply not fetched: its jobs stay in its queue, with no attempt spent
 * and nothing handed back and forth.
 *
 * The endpoint and account caps hold across every process sharing the database, not per process: `READY` also
 * counts the attempts claimed and under lease anywhere, and `share` takes the larger of that and this process's own
 * count (which also holds jobs fetched but not claimed yet). Two processes that read the same counts at once could
 * still fetch past the endpoint cap, so the claim itself counts the endpoint's live claims under a lock of the
 * endpoint's and refuses the one past the cap (deliver-webhook.ts); the refused job is handed back unsent, due again
 * after `REFUSED_DELAY_SECONDS`, with no attempt spent. (The account cap is kept by `share` alone: a race can pass it
 * by what two processes fetch at once, for as long as those attempts last.) So a flood of one account's events, or
 * any number of its endpoints that hang, holds at most `perAccount` slots and never sits ahead of another account's
 * jobs in a queue.
 *
 * Slowness is judged by timeouts, never by time spent waiting in the queue: an endpoint whose last attempt got
 * no answer within the timeout (it hangs, or is black-holed) is given one attempt at a time (a probe) until an
 * attempt gets an answer; one that answers, however slowly within the timeout, keeps `perEndpoint` in flight.
 *
 * Each job is completed by the attempt itself, in the transaction that records its outcome (deliver-webhook.ts).
 * A run that throws after its claim completes its job too (the sweep finishes the attempt after its lease); only
 * a run that failed before claiming is failed back to pg-boss for a retry. Jobs queued on the legacy global queue (before per-endpoint queues) are moved,
 * unsent and with the same attempt number, to their endpoint's queue.
 */
export function startDeliveryPump(boss: PgBoss, db: Db, options: DeliveryPumpOptions): DeliveryPump {
  const running = new Map<string, Promise<void>>();
  const byEndpoint = new Map<string, number>();
  const byAccount = new Map<string, number>();
  /** Endpoints whose last attempt in this process got no answer within the timeout. */
  const suspect = new Set<string>();
  /** Where the round-robin starts: the account after the one that started last time, and per account its endpoint. */
  let nextAccount = 0;
  const nextEndpoint = new Map<string, number>();
  let stopped = false;
  let wake: (() => void) | null = null;
  const nudge = () => wake?.();
  let legacyCheckedAt = 0;

  const bump = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  };
  const capOf = (endpointId: string) => (suspect.has(endpointId) ? SUSPECT_CAP : options.perEndpoint);

  /** Shares `free` slots among the ready endpoints: accounts in turn, then endpoints in turn, under the caps. */
  const share = (ready: Ready[], free: number): Map<string, Slot & { n: number }> => {
    const accounts = new Map<string, Ready[]>();
    for (const r of ready) accounts.set(r.accountId, [...(accounts.get(r.accountId) ?? []), r]);
    for (const list of accounts.values()) list.sort((a, b) => a.endpointId.localeCompare(b.endpointId));
    const order = [...accounts.keys()].sort();
    const start = order.length > 0 ? nextAccount % order.length : 0;
    const rotated = [...order.slice(start), ...order.slice(0, start)];
    nextAccount = start + 1;
    const given = new Map<string, Slot & { n: number }>();
    const givenTo = (endpointId: string) => given.get(endpointId)?.n ?? 0;
    // What each account and endpoint holds: this process's own count (fetched, claimed or not) or what the database
    // counts claimed by every process, whichever is more. The account's database count is the same on each of its rows.
    const accountLoad = new Map<string, number>();
    for (const [accountId, list] of accounts)
      accountLoad.set(accountId, Math.max(byAccount.get(accountId) ?? 0, list[0]!.accountClaimed));
    const load = (e: Ready) => Math.max(byEndpoint.get(e.endpointId) ?? 0, e.claimed);
    let progress = true;
    while (free > 0 && progress) {
      progress = false;
      for (const accountId of rotated) {
        if (free === 0) break;
        if ((accountLoad.get(accountId) ?? 0) >= options.perAccount) continue;
        const endpoints = accounts.get(accountId)!;
        const first = nextEndpoint.get(accountId) ?? 0;
        for (let k = 0; k < endpoints.length; k++) {
          const index = (first + k) % endpoints.length;
          const e = endpoints[index]!;
          const n = givenTo(e.endpointId);
          if (n >= e.ready || load(e) + n >= capOf(e.endpointId)) continue;
          given.set(e.endpointId, { endpointId: e.endpointId, accountId, n: n + 1 });
          bump(accountLoad, accountId, 1);
          nextEndpoint.set(accountId, index + 1);
          free--;
          progress = true;
          break;
        }
      }
    }
    return given;
  };

  const settle = (slot: Slot, result: Awaited<ReturnType<typeof deliverWebhook>> | null) => {
    if (result?.claimed) {
      if (result.outcome.timedOut) suspect.add(slot.endpointId);
      else if (result.outcome.status !== null) suspect.delete(slot.endpointId);
    }
  };

  /**
   * A job fetched that this process will not run (it is stopping, or its claim was refused at the endpoint's cap):
   * back on its queue, unsent, with the same attempt number (due after `delaySeconds`), and completed in the same
   * transaction, so no attempt is spent and no pg-boss retry count either. It goes back ahead of the jobs queued
   * after it (a higher priority): a refused claim costs its event `delaySeconds`, never its place in the line.
   */
  const handBack = (job: PgBoss.Job<DeliveryJob>, endpointId: string, delaySeconds = 0) =>
    db.transaction(async (tx) => {
      await enqueueDeliveries(tx, [{ ...job.data, endpointId }], delaySeconds, { ahead: true });
      await boss.complete(job.name, job.id, { handedBack: true }, { db: jobSql(tx) });
    });

  const run = (job: PgBoss.Job<DeliveryJob>, slot: Slot) =>
    runInRequest({ requestId: job.data.requestId ?? job.id, operation: "job:webhook-delivery" }, async () => {
      let result: Awaited<ReturnType<typeof deliverWebhook>> | null = null;
      let claimed = false;
      try {
        if (stopped) return await handBack(job, slot.endpointId);
        result = await deliverWebhook(db, job, options.delivery, {
          complete: (executor) => boss.complete(job.name, job.id, { attempted: true }, { db: jobSql(executor) }),
          claimed: () => (claimed = true),
          endpointCap: options.perEndpoint,
        });
        // Other processes had the endpoint's cap claimed: back on its queue, unsent, due again shortly.
        if (!result.claimed && result.refused) await handBack(job, result.endpointId, REFUSED_DELAY_SECONDS);
      } catch (error) {
        options.log(`delivery job ${job.id} failed`, error);
        // Claimed: the attempt was (or may have been) POSTed and stays claimed under its lease; the sweep counts it
        // failed once the lease ends and schedules the next. The job is done: no pg-boss retry of it, which could
        // not claim again anyway. Not claimed (the claim itself failed): pg-boss retries the job, which makes it.
        // Both retried while the database is unreachable (the usual reason the run failed): a job left active by a
        // failed hand-over waits for the sweep (sweep-stuck-deliveries.ts) instead of being retried at once.
        const settleJob = () =>
          claimed
            ? boss.complete(job.name, job.id, { error: String(error) })
            : boss.fail(job.name, job.id, { message: String(error) });
        await retryWhileUnavailable(settleJob, Date.now() + SETTLE_JOB_FOR_MS).catch(() => {});
      } finally {
        settle(slot, result);
      }
    });

  /** Endpoints with attempts due, each with its account and how many are due (counted up to the endpoint cap). */
  const findReady = () => queryRows<Ready>(db, READY, [options.perEndpoint]);

  /** Moves due jobs of the legacy global queue to their endpoints' queues, unsent (see `handBack`). */
  const rehomeLegacy = async () => {
    const jobs = await boss.fetch<DeliveryJob>(QUEUES.webhookDelivery, { batchSize: LEGACY_BATCH });
    for (const job of jobs) {
      try {
        let endpointId = job.data.endpointId;
        if (!endpointId) {
          const [row] = await db
            .select({ endpointId: webhookDeliveries.endpointId })
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.id, job.data.deliveryId));
          endpointId = row?.endpointId;
        }
        if (endpointId) await handBack(job, endpointId);
        else await boss.complete(job.name, job.id, { gone: true });
      } catch (error) {
        options.log(`moving legacy delivery job ${job.id} failed`, error);
        await boss.fail(job.name, job.id, { message: String(error) }).catch(() => {});
      }
    }
    return jobs.length;
  };

  const loop = async () => {
    while (!stopped) {
      let fetched = 0;
      try {
        if (Date.now() - legacyCheckedAt >= options.pollingSeconds * 1000) {
          legacyCheckedAt = Date.now();
          await rehomeLegacy();
        }
        const free = options.concurrency - running.size;
        const given = free > 0 ? share(await findReady(), free) : new Map();
        const batches = await Promise.all(
          [...given.values()].map(async (slot) => ({
            slot,
            jobs: await boss.fetch<DeliveryJob>(`${DELIVERY_QUEUE_PREFIX}${slot.endpointId}`, { batchSize: slot.n }),
          })),
        );
        for (const { slot, jobs } of batches) {
          for (const job of jobs) {
            fetched++;
            bump(byEndpoint, slot.endpointId, 1);
            bump(byAccount, slot.accountId, 1);
            const task = run(job, slot).finally(() => {
              running.delete(job.id);
              bump(byEndpoint, slot.endpointId, -1);
              bump(byAccount, slot.accountId, -1);
              nudge();
            });
            running.set(job.id, task);
          }
        }
      } catch (error) {
        options.log("fetching delivery jobs failed", error);
      }
      // Got some and slots are still free: look again at once (more may be due). Otherwise wait for the polling
      // interval, or less when an attempt ends (a slot, or an endpoint's or account's share, was freed).
      if (fetched > 0 && running.size < options.concurrency) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.pollingSeconds * 1000);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
        if (stopped) done();
      });
    }
  };
  const looping = loop();

  return {
    inFlight: () => byAccount,
    async stop(timeoutMs) {
      // No more fetches; a job fetched but not yet claimed is handed back unsent (`run`); an attempt already
      // claimed runs to its end (its POST is bounded by the timeout) and records its outcome.
      stopped = true;
      nudge();
      await looping;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
      const all = Promise.all(running.values()).then(() => "done" as const);
      const ended = await Promise.race([all, deadline]);
      clearTimeout(timer);
      // Past the deadline (the database is unreachable, say): each such attempt is still claimed under its lease;
      // the sweep counts it failed once the lease ends. Nothing is failed back to pg-boss for an immediate re-POST.
      if (ended === "late") options.log(`${running.size} delivery attempts still running when the worker stopped`);
    },
  };
}

// Which endpoints have attempts waiting, read from the deliveries themselves: a pending delivery that no attempt
// holds and whose next attempt is due has its job due in its endpoint's queue. Not from pg-boss's job table: a
// statement over it that is not about one named queue is planned over every partition (one per endpoint), tens of
// milliseconds per poll with a hundred endpoints. The count stops at $1 (an endpoint's cap), whatever the backlog.
// A job the count missed or a count with no job behind it (one being moved) only costs a fetch that gets less.
// The attempts claimed and under lease, by any process, are few (bounded by the processes' concurrency) and read
// from their own partial index (webhook_deliveries_claimed_idx), per endpoint and summed per account.
const READY = `
  with live as (
    select c.endpoint_id, c.account_id, count(*)::int as n
    from webhook_deliveries c
    where c.status = 'pending' and c.job_id is not null and c.lease_until > now()
    group by c.endpoint_id, c.account_id),
  by_account as (select account_id, sum(n)::int as n from live group by account_id)
  select e.id as "endpointId", e.account_id as "accountId", due.n as ready,
    coalesce(l.n, 0) as claimed, coalesce(a.n, 0) as "accountClaimed"
  from webhook_endpoints e
  cross join lateral (
    select count(*)::int as n from (
      select 1 from webhook_deliveries d
      where d.endpoint_id = e.id and d.status = 'pending' and d.job_id is null and d.next_attempt_at <= now()
      limit $1) waiting) due
  left join live l on l.endpoint_id = e.id
  left join by_account a on a.account_id = e.account_id
  where due.n > 0`;
