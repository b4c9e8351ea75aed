import type { ReservedSql, Sql } from "postgres";
import { isDatabaseUnavailable, markConnectionFailure } from "./connection-errors";

type Scope = ReservedSql & { savepoint: (...args: unknown[]) => Promise<unknown> };
type Body = (sql: Scope) => unknown;
type Unsafe = (...args: unknown[]) => { reject: (error: unknown) => void };

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
 */
export function reservedTransactions<T extends Sql>(client: T): T {
  const begin = async (...args: unknown[]): Promise<unknown> => {
    const body = args[args.length - 1] as Body;
    const mode = args.length > 1 && typeof args[0] === "string" ? args[0].replace(/[^a-z ]/gi, "") : "";
    const conn = await client.reserve().catch((error: unknown) => {
      markConnectionFailure(error);
      throw error;
    });
    let gone = false;
    const unsafe = conn.unsafe.bind(conn) as unknown as Unsafe;
    const watched: Unsafe = (...a) => {
      const query = unsafe(...a);
      const reject = query.reject;
      query.reject = (error) => {
        if (isDatabaseUnavailable(error)) gone = true;
        reject(error);
      };
      return query;
    };
    let savepoints = 0;
    const scope: Scope = Object.assign(conn, {
      unsafe: watched as unknown as ReservedSql["unsafe"],
      async savepoint(...a: unknown[]): Promise<unknown> {
        const name = `s${++savepoints}`;
        await conn.unsafe(`savepoint ${name}`);
        try {
          const result = await (a[a.length - 1] as Body)(scope);
          await conn.unsafe(`release savepoint ${name}`);
          return result;
        } catch (error) {
          if (!gone) await conn.unsafe(`rollback to savepoint ${name}`);
          throw error;
        }
      },
    });
    let reusable = true;
    try {
      await conn.unsafe(`begin ${mode}`);
      const result = await body(scope);
      await conn.unsafe("commit");
      return result;
    } catch (error) {
      reusable =
        !gone &&
        (await conn.unsafe("rollback").then(
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
