/**
 * Whether this process has been asked to stop (SIGTERM, SIGINT). Readiness answers 503 from that moment, so a load
 * balancer stops sending requests while the process lets its work in flight finish (server/jobs/web-process.ts).
 *
 * Kept on globalThis: the signal handler (loaded with instrumentation.ts) and the readiness route are separate
 * bundles of the production build, each with its own copy of this module.
 */
const state = globalThis as unknown as { __sopStopping?: { since: Date } };

export function markStopping(): void {
  state.__sopStopping ??= { since: new Date() };
}

export function stoppingSince(): Date | null {
  return state.__sopStopping?.since ?? null;
}
