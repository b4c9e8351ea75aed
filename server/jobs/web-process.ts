import { getDb } from "@/db/client";
import { env } from "@/server/env";
import { startWorker, workerOptionsFromEnv, type RunningWorker } from "./worker";

const globalForWorker = globalThis as unknown as { __sopWorker?: Promise<RunningWorker | null> };

const RETRY_MS = 5000;

/**
 * Starts the background worker inside the web process (`next start`, `npm start`, `npm run dev`) unless
 * WORKER=off. It starts in the background and keeps trying while the database is not reachable, so the web
 * server's start never waits on it; SIGTERM stops it gracefully.
 */
export function startWebProcessWorker(): void {
  if (env().WORKER === "off" || globalForWorker.__sopWorker) return;
  const options = workerOptionsFromEnv();
  let stopping = false;
  const attempt = async (): Promise<RunningWorker | null> => {
    while (!stopping) {
      try {
        return await startWorker(await getDb(), options);
      } catch (error) {
        options.log(`could not start; retrying in ${RETRY_MS / 1000} s`, error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    return null;
  };
  const running = attempt();
  globalForWorker.__sopWorker = running;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stopping = true;
      void running.then((worker) => worker?.stop());
    });
  }
}
