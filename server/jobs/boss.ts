import PgBoss from "pg-boss";
import type { Executor } from "@/db/client";
import { ensureDeliveryQueues } from "@/server/queue/delivery-queues";
import { createQueues } from "@/server/queue/queues";
import { jobSql } from "@/server/queue/sql-adapter";

/**
 * Installs (or migrates) pg-boss's schema and creates the app's queues. Runs with the app's migrations, so
 * jobs sent inside a transaction always find their queue: pg-boss silently drops a job for a queue that does
 * not exist.
 */
export async function prepareJobs(db: Executor): Promise<void> {
  const boss = new PgBoss({ db: jobSql(db), supervise: false, schedule: false, migrate: true });
  boss.on("error", () => {});
  await boss.start();
  await createQueues(boss);
  await boss.stop({ graceful: false, close: false });
  await ensureDeliveryQueues(db);
}
