import type { ReservedSql, Sql } from "postgres";
import { isDatabaseUnavailable } from "@/server/errors";

type Scope = ReservedSql & { savepoint: (...args: unknown[]) => Promise<unknown> };
type Body = (sql: Scope) => unknown;

/**
 * Replaces postgres.js's `begin` (which Drizzle's `db.transaction` calls) with one that never writes to a
 * connection after it failed.
 *
 * postgres.js 3.4.x sends ROLLBACK on a transaction's connection after any error in the transaction, also when
 * the error is that the connection closed (PostgreSQL stopped or restarted, the backend terminated). That write
 * runs from a setImmediate against a null socket, and the uncaught TypeError ends the whole process
 * (porsager/postgres#1154, #1208); or, when a write was already pending, the ROLLBACK waits for ever. Here a
 * transaction runs on a reserved connection: after a connection-level error nothing more is sent on it and it is
 * not handed back, since the pool has already moved it to its closed connections and reconnects it on demand.
 * PostgreSQL rolls back the transaction of a session that ends.
 */
export function safeTransactions<T extends Sql>(client: T): T {
  const begin = async (...args: unknown[]): Promise<unknown> => {
    const body = args[args.length - 1] as Body;
    const mode = args.length > 1 && typeof args[0] === "string" ? args[0].replace(/[^a-z ]/gi, "") : "";
    const conn = await client.reserve();
    let savepoints = 0;
    const scope: Scope = Object.assign(conn, {
      async savepoint(...a: unknown[]): Promise<unknown> {
        const name = `s${++savepoints}`;
        await conn.unsafe(`savepoint ${name}`);
        try {
          const result = await (a[a.length - 1] as Body)(scope);
          await conn.unsafe(`release savepoint ${name}`);
          return result;
        } catch (error) {
          if (!isDatabaseUnavailable(error)) await conn.unsafe(`rollback to savepoint ${name}`);
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
        !isDatabaseUnavailable(error) &&
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
