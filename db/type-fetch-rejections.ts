import { logger } from "@/server/observability/logger";

/**
 * postgres.js 3.4.9 fetches the array types on a new connection's first ReadyForQuery (`fetch_types`, on by
 * default) from an async function whose promise it discards (`connection.js`, `fetchArrayTypes`;
 * porsager/postgres#1192, open). When that connection's backend is ended while the type query runs (an operator's
 * `pg_terminate_backend`, a failover, PgBouncer restarting), the query rejects with CONNECTION_CLOSED, nothing
 * holds the promise, and Node ends the process for an unhandled rejection: a worker or web process would die of
 * one terminated backend. The statement that was waiting for the
 * connection is rejected on its own and its caller handles it (a 503, a retried job); the connection reconnects
 * for the next one. So only that one orphaned rejection is taken here, logged; every other unhandled rejection
 * keeps Node's default (the process ends with it) unless another handler (Next's, in a web process) takes it.
 *
 * Remove when postgres.js handles the promise itself (the test `db/type-fetch-rejections.test.ts` then passes
 * without this handler too).
 */
export function absorbTypeFetchRejections(): void {
  if (installed) return;
  installed = true;
  process.on("unhandledRejection", (reason) => {
    if (isTypeFetchFailure(reason)) {
      logger.warn(
        { err: String(reason), code: (reason as { code?: unknown }).code },
        "postgres.js: a new connection's type fetch failed (porsager/postgres#1192); the connection reconnects",
      );
      return;
    }
    // Not ours to absorb: as if this listener did not exist (Node's default ends the process with it).
    if (process.listenerCount("unhandledRejection") === 1) throw reason;
  });
}

let installed = false;

/** The rejection of postgres.js's own array-type query: it names that query (`queryError` sets `query`). */
export function isTypeFetchFailure(reason: unknown): boolean {
  if (!reason || typeof reason !== "object") return false;
  const query = (reason as { query?: unknown }).query;
  return typeof query === "string" && query.includes("pg_catalog.pg_type a") && query.includes("typarray");
}
