import PgBoss from "pg-boss";
import type { Executor } from "@/db/client";
import { currentRequest } from "@/server/observability/request-context";
import { QUEUE_OPTIONS } from "./queues";
import { jobSql } from "./sql-adapter";

/**
 * Installs (or migrates) pg-boss's schema and creates the app's queues. Runs with the app's migrations, so
 * jobs sent inside a transaction always find their queue: pg-boss silently drops a job for a queue that does
 * not exist.
 */
export async function prepareJobs(db: Executor): Promise<void> {
  const boss = new PgBoss({ db: jobSql(db), supervise: false, schedule: false, migrate: true });
  boss.on("error", () => {});
  await boss.start();
  for (const queue of QUEUE_OPTIONS) await boss.createQueue(queue.name, queue);
  await boss.stop({ graceful: false, close: false });
}

// Only used with an explicit `db`: building pg-boss's statements once per process, not per transaction.
let sender: PgBoss | undefined;

/**
 * Adds jobs through `executor`: inside a transaction they commit (or roll back) with it. No pg-boss needs to
 * be running in this process; any worker on the database picks them up.
 */
export async function enqueueJobs(executor: Executor, jobs: PgBoss.JobInsert[]): Promise<void> {
  if (jobs.length === 0) return;
  sender ??= new PgBoss({
    db: { executeSql: () => Promise.reject(new Error("jobs are sent through the caller's connection")) },
    supervise: false,
    schedule: false,
    migrate: false,
  });
  // Jobs a request enqueues carry its id, so the worker's log lines of them can be found by it.
  const requestId = currentRequest()?.requestId;
  const tagged = requestId
    ? jobs.map((job) => ({ ...job, data: { ...(job.data as object | undefined), requestId } }))
    : jobs;
  await sender.insert(tagged, { db: jobSql(executor) });
}
