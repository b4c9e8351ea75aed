import { closeDb, getDb } from "@/db/client";
import { currentEnv, env } from "@/server/env";
import { logger } from "@/server/observability/logger";
import { markStopping } from "@/server/services/health/stopping";
import { startWorker, workerOptionsFromEnv, type RunningWorker } from "./worker";

const RETRY_MS = 5000;
const SIGNALS = ["SIGTERM", "SIGINT"] as const;
type Signal = (typeof SIGNALS)[number];

/**
 * One signal often arrives more than once at nearly the same moment: Ctrl-C reaches every process of the
 * terminal's group, and a parent (scripts/start.ts, `next dev`) forwards it as well. Only a signal this much
 * later than the first is taken as "stop now".
 */
const REPEAT_FORCES_AFTER_MS = 1000;

/** How long the HTTP server has, once the worker has stopped, to finish the requests in flight. */
const HTTP_GRACE_MS = () => currentEnv.SHUTDOWN_TIMEOUT_MS;

// On globalThis: instrumentation may run this more than once per process (dev reloads), and the process is one.
const globalForProcess = globalThis as unknown as { __sopWebProcess?: { stopWorker: () => Promise<void> } };

/**
 * Called once per web process (`next start`, `npm start`, `npm run dev`) by instrumentation.ts: starts the
 * background worker unless WORKER=off, and makes this process the owner of SIGTERM and SIGINT.
 *
 * Next's `next start` and `next dev` install their own handler, which closes the HTTP server, waits for the
 * requests in flight and then calls `process.exit`, without waiting for anything else: a worker in the process
 * would be cut in the middle of its webhook POSTs, and they would be POSTed again later.
 * `NEXT_MANUAL_SIG_HANDLE` would remove that handler but leave nothing able to close Next's HTTP server. So this
 * takes Next's handler off the signal (it is installed before the server loads instrumentation) and runs it
 * itself, last: on a signal the process
 *  1. is marked stopping: readiness answers 503 at once, and the server keeps answering meanwhile, so a load
 *     balancer moves traffic away instead of meeting refused connections;
 *  2. stops the worker: no new job, each webhook attempt in flight finishes and records its outcome or is handed
 *     back unsent (worker.ts, bounded by the webhook timeout);
 *  3. hands over to Next's handler: no new connection, the requests in flight finish (at most SHUTDOWN_TIMEOUT_MS,
 *     default 30 s, then the process exits 1), and the process exits (143 after SIGTERM, 130 after SIGINT:
 *     `npm start` reports that orderly end as 0). With no handler of Next's (NEXT_MANUAL_SIG_HANDLE set), the
 *     database pool is closed and the process exits 0.
 * A second signal a moment later ends the process at once.
 */
export function startWebProcess(): void {
  if (globalForProcess.__sopWebProcess) return;
  const worker = env().WORKER === "off" ? null : startInBackground();
  globalForProcess.__sopWebProcess = { stopWorker: worker ?? (async () => {}) };
  ownSignals(globalForProcess.__sopWebProcess.stopWorker);
}

/**
 * Starts the worker without holding up the web server's start, retrying while the database is not reachable; the
 * answer stops it (or the retrying).
 */
function startInBackground(): () => Promise<void> {
  const options = workerOptionsFromEnv();
  let stopping = false;
  let wake = () => {};
  const attempt = async (): Promise<RunningWorker | null> => {
    while (!stopping) {
      try {
        return await startWorker(await getDb(), options);
      } catch (error) {
        if (stopping) return null;
        options.log(`could not start; retrying in ${RETRY_MS / 1000} s`, error);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, RETRY_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
    return null;
  };
  const running = attempt();
  return async () => {
    stopping = true;
    wake();
    await (await running)?.stop();
  };
}

function ownSignals(stopWorker: () => Promise<void>): void {
  let first: number | null = null;
  const nextHandlers = new Map<Signal, ((...args: unknown[]) => void)[]>();
  for (const signal of SIGNALS) {
    const handlers = process.listeners(signal) as ((...args: unknown[]) => void)[];
    for (const handler of handlers) process.removeListener(signal, handler);
    nextHandlers.set(signal, handlers);
    process.on(signal, () => {
      if (first !== null) {
        if (Date.now() - first < REPEAT_FORCES_AFTER_MS) return;
        logger.warn({ signal }, "stopping: asked again, exiting now");
        process.exit(1);
      }
      first = Date.now();
      markStopping();
      logger.info({ signal }, "stopping: readiness 503; the worker finishes its attempts in flight, then the server");
      void stopWorker()
        .catch((error: unknown) => logger.error({ err: error }, "stopping: the worker did not stop cleanly"))
        .then(() => handOver(signal, nextHandlers.get(signal) ?? []));
    });
  }
}

async function handOver(signal: Signal, nextHandlers: ((...args: unknown[]) => void)[]): Promise<void> {
  if (nextHandlers.length === 0) {
    await closeDb().catch(() => {});
    process.exit(0);
  }
  setTimeout(() => {
    logger.error({ signal }, "stopping: requests still running at the shutdown deadline, exiting");
    process.exit(1);
  }, HTTP_GRACE_MS()).unref();
  for (const handler of nextHandlers) handler(signal);
}
