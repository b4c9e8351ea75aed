import type PgBoss from "pg-boss";
import type { Executor } from "@/db/client";
import { isDatabaseUnavailable } from "@/db/connection-errors";

type PgliteLike = {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows: unknown[] }[]>;
};
type PostgresLike = {
  unsafe(text: string, values?: unknown[]): Promise<unknown>;
  /** On the pool only (not on a transaction's connection). */
  reserve?: () => Promise<PostgresLike & { release(): void }>;
  release?: () => void;
};

/**
 * JSON arguments go over as text (the drivers disagree on how they serialise plain objects), and pg-boss's
 * unset options as NULL, as its own driver (pg) sends them; postgres.js refuses `undefined`.
 */
const serialise = (values: unknown[]) =>
  values.map((v) =>
    v === undefined
      ? null
      : v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)
        ? JSON.stringify(v)
        : v,
  );

/**
 * pg-boss's `db` option over the connection drizzle already holds, so that pg-boss statements run in the
 * caller's transaction when given one (an event and its delivery jobs commit together), and over the one
 * embedded PGlite instance: a PGlite transaction serialises the instance, so anything not sent through the
 * transaction's own handle would wait for ever. Parameterless SQL may hold several statements (pg-boss's
 * migrations), which only PGlite's `exec` and postgres.js's simple protocol accept.
 */
export function jobSql(executor: Executor): PgBoss.Db {
  const client = (executor as unknown as { session: { client: PgliteLike | PostgresLike } }).session.client;
  if ("exec" in client) {
    return {
      async executeSql(text, values) {
        if (!values || values.length === 0) return { rows: (await client.exec(text)).at(-1)?.rows ?? [] };
        return { rows: (await client.query(text, serialise(values))).rows };
      },
    };
  }
  return {
    async executeSql(text, values) {
      const parameterless = !values || values.length === 0;
      // pg-boss's parameterless SQL may be a whole `BEGIN; …; COMMIT` (maintenance under an advisory lock):
      // postgres.js runs that only on a connection of its own, never on a shared pool connection.
      const connection = parameterless && client.reserve && !client.release ? await client.reserve() : null;
      let result: unknown[];
      let dead = false;
      try {
        result = (await (connection ?? client).unsafe(text, parameterless ? [] : serialise(values))) as unknown[];
      } catch (error) {
        // A connection whose backend is gone (terminated, server restarting) is never handed back: the pool
        // moves it to its closed ones when the socket closes and reconnects it when needed. Released, it would
        // sit among the open ones and fail every query routed to it.
        dead = isDatabaseUnavailable(error);
        // A script that failed half-way may leave its transaction open: never hand that connection back so.
        if (connection && !dead) await connection.unsafe("rollback").catch(() => (dead = true));
        throw error;
      } finally {
        if (!dead) connection?.release();
      }
      // A multi-statement simple query answers one result per statement; pg-boss reads the last.
      const rows = result.length > 0 && Array.isArray(result[0]) ? (result.at(-1) as unknown[]) : result;
      return { rows: [...rows] };
    },
  };
}
