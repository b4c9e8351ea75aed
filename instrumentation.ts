/**
 * Next calls this once when a server process starts (`next start`, `next dev`): the process owns SIGTERM and
 * SIGINT (readiness 503, then the worker and the requests in flight finish: server/jobs/web-process.ts), and the
 * background worker (webhook deliveries, tracking, clean-up) runs in the web process unless WORKER=off.
 */
export async function register(): Promise<void> {
  // Next's own flags, read before anything Node-only loads: the edge runtime calls this too, and env() is Node's.
  // eslint-disable-next-line no-restricted-properties
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startWebProcess } = await import("./server/jobs/web-process");
  startWebProcess();
}
