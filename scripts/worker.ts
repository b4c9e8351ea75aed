import { closeDb, getDb } from "@/db/client";
import { migrate } from "@/db/migrate";
import { startWorker, workerOptionsFromEnv } from "@/server/jobs/worker";

// A dedicated worker (`npm run worker`): the same jobs the web processes run unless WORKER=off. Any number
// may run against one PostgreSQL database.
await migrate();
const worker = await startWorker(await getDb(), workerOptionsFromEnv());
console.log("worker: running (webhook deliveries, tracking, event clean-up)");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void worker
      .stop()
      .then(() => closeDb())
      .then(() => process.exit(0));
  });
}
