import type { ReservedSql, Sql } from "postgres";
import { isDatabaseUnavailable, markConnectionFailure } from "./connection-errors";

type Scope = ReservedSql & { savepoint: (...args: unknown[]) => Promise<unknown> };
type Body = (sql: Scope) => unknown;
/** postgres.js's query as this wrapper touches it: settled by `reject`, sent by `handler` when awaited. */
type Query = Promise<unknown> & {
  reject: (error: unknown) => void;
  handler: ((query: Query) => void) & { debug?: unknown };
};
type Unsafe = (...args: unknown[]) => Query;
/** postgres.js's connection (internal): the pool calls its `onclose` when its socket closes. */
type Connection = { onclose?: ((error: Error) => void) | null };

const pick = (from: object, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => Object.hasOwn(from, k)).map((k) => [k, (from as Record<string, unknown>)[k]]));

/** How long a transaction waits for a connection of its own before it is refused as "database unavailable". */
const RESERVE_TIMEOUT_MS = 30_000;

/**
 * `client.reserve()`, refused after `timeoutMs` with CONNECT_TIMEOUT (a 503 to retry, isDatabaseUnavailable). A
 * wait for a busy pool ends well within that; what it bounds is the reservation postgres.js never answers: when the
 * backend of the pool's new connection is ended while postgres.js fetches its array types (porsager/postgres#1192,
 * db/type-fetch-rejections.ts), the reservation is neither given the connection nor refused, and the request would
 * wait for ever. A reservation granted after the refusal is handed straight back, its transaction never run.
 */
async function reserveWithin(client: Sql, timeoutMs: number): Promise<ReservedSql> {
  const reserving = client.reserve().catch((error: unknown) => {
    markConnectionFailure(error);
    throw error;
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
  const first = await Promise.race([reserving, late]).finally(() => clearTimeout(timer));
  if (first !== "late") return first;
  void reserving.then(
    (conn) => conn.release(),
    () => undefined,
  );
  throw Object.assign(new Error(`no database connection within ${timeoutMs} ms`), {
    code: "CONNECT_TIMEOUT",
    errno: "CONNECT_TIMEOUT",
  });
}

/**
 * Replaces postgres.js's `begin` (which Drizzle's `db.transaction` calls) with one that runs each transaction
 * on a reserved connection, rolls it back whenever the transaction fails for any reason of its own (a
 * constraint, an AppError, a failed `fetch`), and never writes to that connection once it is gone.
 *
 * postgres.js 3.4.x sends ROLLBACK on a transaction's connection after any error in the transaction, also when
 * the error is that the connection closed (PostgreSQL stopped or restarted, the backend terminated). That write
 * runs from a setImmediate against a null socket, and the uncaught TypeError ends the whole process
 * (porsager/postgres#1154, #1208); or, when a write was already pending, the ROLLBACK waits for ever.
 * `patches/postgres+3.4.9.patch` (applied by `npm install`) makes the driver settle such queries with
 * CONNECTION_CLOSED instead; this wrapper still sends nothing more on a dead connection. So the
 * connection's own queries are watched: once one of them fails because the connection died, nothing more is
 * sent on it and it is not handed back (the pool has already moved it to its closed connections and reconnects
 * it on demand; PostgreSQL rolls back the transaction of a session that ends). Any other failure is rolled back
 * and the connection released, so a transaction that failed for a reason outside the database never leaves its
 * backend idle in transaction and the pool short of a connection.
 *
 * A reserved connection that closed refuses every later statement of its transaction, COMMIT included, before
 * sending it. postgres.js puts a connection whose socket closed with its closed connections, and the next pool
 * query reconnects that same `Connection` object; the reserved handle, still pointing at it, would send the
 * body's next statements to the new session, where they run and commit one by one in autocommit: half a
 * transaction stored and `db.transaction` resolved (porsager/postgres#1155). Waiting for
 * a statement to fail does not catch it (the next one succeeds on the new session), and comparing backend pids
 * would miss a statement written while the new session is starting. So the close itself is heard: BEGIN's
 * `onexecute` hands over the `Connection` (postgres.js's own `begin` learns its connection the same way) and
 * its `onclose`, which the pool calls the moment the socket closes and before any reconnect, marks the scope
 * gone. Each statement of the scope checks that when it is about to be sent (its `handler`), not when it is
 * built, so one built before the close and awaited after it is refused too.
 */
export function reservedTransactions<T extends Sql>(
  client: T,
  { reserveTimeoutMs = RESERVE_TIMEOUT_MS }: { reserveTimeoutMs?: number } = {},
): T {
  const begin = async (...args: unknown[]): Promise<unknown> => {
    const body = args[args.length - 1] as Body;
    const mode = args.length > 1 && typeof args[0] === "string" ? args[0].replace(/[^a-z ]/gi, "") : "";
    const conn = await reserveWithin(client, reserveTimeoutMs);
    /** The close of the connection (or a statement's failure for want of it), once it has happened. */
    let gone: Error | null = null;
    // A new error per refused statement, coded as postgres.js's own and marked as the connection's failure (a 503 to
    // retry, isDatabaseUnavailable): a bare socket code (ECONNRESET when the backend's end reset the socket under a
    // statement) is the database's only with that mark, and the copy carries no query of its own.
    const refusal = (closed: Error) => {
      const refused = Object.assign(new Error(closed.message), pick(closed, ["code", "errno", "address", "port"]), {
        cause: closed,
      });
      markConnectionFailure(refused);
      return refused;
    };
    const unsafe = conn.unsafe.bind(conn) as unknown as Unsafe;
    const watched: Unsafe = (...a) => {
      const query = unsafe(...a);
      const reject = query.reject;
      query.reject = (error) => {
        if (!gone && isDatabaseUnavailable(error)) gone = error as Error;
        reject(error);
      };
      // The query calls its handler when it is sent (awaited), which may be long after it was built.
      const send = query.handler;
      query.handler = Object.assign((q: Query) => (gone ? q.reject(refusal(gone)) : send(q)), { debug: send.debug });
      return query;
    };
    let savepoints = 0;
    const scope: Scope = Object.assign(conn, {
      unsafe: watched as unknown as ReservedSql["unsafe"],
      async savepoint(...a: unknown[]): Promise<unknown> {
        const name = `s${++savepoints}`;
        await watched(`savepoint ${name}`);
        try {
          const result = await (a[a.length - 1] as Body)(scope);
          await watched(`release savepoint ${name}`);
          return result;
        } catch (error) {
          if (!gone) await watched(`rollback to savepoint ${name}`);
          throw error;
        }
      },
    });
    let reusable = true;
    try {
      let connection: Connection | undefined;
      await watched(`begin ${mode}`, [], {
        onexecute(c: Connection) {
          connection = c;
          const theirs = c.onclose;
          c.onclose = (error) => {
            gone ??= error;
            theirs?.(error);
          };
          return true;
        },
      });
      // Without the connection its close cannot be heard: refuse to run a transaction that could half commit
      // (a postgres.js upgrade that changed these internals fails every transaction, and this file's tests).
      if (!connection) throw new Error("postgres.js did not hand over the reserved connection at BEGIN");
      const result = await body(scope);
      await watched("commit");
      return result;
    } catch (error) {
      reusable =
        !gone &&
        (await watched("rollback").then(
          () => true,
          () => false,
        ));
      throw error;
    } finally {
      if (reusable) conn.release();
    }
  };
  (client as unknown as { begin: typeof begin }).begin = begin;
  return client;
}
