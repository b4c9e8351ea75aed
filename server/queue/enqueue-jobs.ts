import PgBoss from "pg-boss";
import type { Executor } from "@/db/client";
import { currentRequest } from "@/server/observability/request-context";
import { jobSql } from "./sql-adapter";

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
