import pRetry from "p-retry";
import { DrizzleQueryError } from "drizzle-orm";

/** Codes postgres.js gives the errors it raises for its own connections (`Errors.connection`). */
const DRIVER_CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** Socket errors of the connection to PostgreSQL (refused, reset, unreachable). */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATEs PostgreSQL ends or refuses a session with: class 08 (connection exception) and 57P01–57P03 (shutdown). */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"]);

/** PGlite runs in this process: it is only ever unavailable because it was closed. */
const PGLITE_CLOSED = new Set(["PGlite is closed", "PGlite is closing"]);

/** Socket errors postgres.js handed out before a query could carry them (reserving a connection). */
const reserveFailures = new WeakSet<object>();

/** Records that `error` came from connecting to the database, where postgres.js passes the socket's error on as is. */
export function markConnectionFailure(error: unknown): void {
  if (typeof error === "object" && error !== null) reserveFailures.add(error);
}

type Coded = { code?: unknown; errno?: unknown; severity?: unknown };

/**
 * drizzle's "Failed query" wrapper of the driver's error (`DrizzleQueryError`), told by its shape as well as by its
 * class: the production build holds a copy of drizzle-orm per server bundle, and the database handle is made once per
 * process (db/client.ts) by whichever bundle asks first (the worker's, in `instrumentation.ts`), so a route's own
 * copy of the class does not match what that handle throws. Told by its class alone, a create whose cause is
 * CONNECTION_CLOSED would answer 500 "unhandled error" instead of the 503 a client retries.
 */
function isQueryWrapper(error: unknown): error is Error & { cause: unknown } {
  if (error instanceof DrizzleQueryError) return true;
  return (
    error instanceof Error &&
    error.cause !== undefined &&
    typeof (error as { query?: unknown }).query === "string" &&
    "params" in error &&
    error.message.startsWith("Failed query: ")
  );
}

/**
 * Whether `error` means "PostgreSQL is not reachable right now" (a 503 to retry), judged from the database
 * driver alone: postgres.js's own connection errors, a socket error postgres.js attached to one of its
 * queries, PostgreSQL ending the session, or a closed PGlite. Any other network error — a `fetch` to a courier
 * or a webhook receiver that failed with ECONNREFUSED — is not the database's, and is never taken for it.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isQueryWrapper(error)) return isDatabaseUnavailable(error.cause);
  if (typeof error !== "object" || error === null) return false;
  const { code, errno, severity } = error as Coded;
  if (typeof code !== "string") return error instanceof Error && PGLITE_CLOSED.has(error.message);
  if (DRIVER_CONNECTION_CODES.has(code)) return errno === code;
  if (SOCKET_CODES.has(code)) return Object.hasOwn(error, "query") || reserveFailures.has(error);
  return SERVER_CODES.has(code) && typeof severity === "string";
}

/**
 * Runs `work` (statements to the database, nothing else) again while it fails because the database was unreachable
 * (isDatabaseUnavailable, or any connection error code: see hasConnectionCode), with backoff,
 * until `deadline` (epoch ms); any other error, or the deadline, ends it with that error. For writes whose
 * content only this process knows and that must not be dropped because one backend was terminated or the
 * database restarted: a webhook attempt's outcome, a job handed back to its queue.
 */
export function retryWhileUnavailable<T>(work: () => Promise<T>, deadline: number): Promise<T> {
  return pRetry(() => withinMs(work, Math.min(ATTEMPT_TIMEOUT_MS, Math.max(1, deadline - Date.now()))), {
    retries: 20,
    minTimeout: 100,
    maxTimeout: 2000,
    maxRetryTime: Math.max(0, deadline - Date.now()),
    shouldRetry: ({ error }) =>
      error instanceof AttemptTimedOut || isDatabaseUnavailable(error) || hasConnectionCode(error),
  });
}

/**
 * How long one try of `retryWhileUnavailable` may take before the next is started: p-retry's deadline is checked only
 * between tries, and a try can hang on a connection the database ended (a webhook outcome's write would outlast
 * its lease, and the sweep would then POST the event again). A try left behind may still finish; the
 * work is fenced (a webhook outcome is written only under its run's token), so a late one writes nothing twice.
 */
const ATTEMPT_TIMEOUT_MS = 3000;

class AttemptTimedOut extends Error {}

function withinMs<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AttemptTimedOut(`no answer from the database within ${ms} ms`)), ms);
  });
  const attempt = work();
  attempt.catch(() => {}); // a try left behind must not end as an unhandled rejection
  return Promise.race([attempt, late]).finally(() => clearTimeout(timer));
}

/**
 * A connection's error code anywhere in `error`'s causes. `work` given to `retryWhileUnavailable` talks to the
 * database only, so such an error can only be the database connection's, even where postgres.js handed it on bare
 * (a socket reset under a statement of a reserved connection carries no query: a bare `read ECONNRESET` under a
 * webhook outcome's write must be retried, or the attempt stays claimed past its lease and is POSTed again).
 */
function hasConnectionCode(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as Error).cause, depth++) {
    const { code } = e as Coded;
    if (typeof code === "string" && (DRIVER_CONNECTION_CODES.has(code) || SOCKET_CODES.has(code))) return true;
  }
  return false;
}
