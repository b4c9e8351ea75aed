import type PgBoss from "pg-boss";
import type { Executor } from "@/db/client";

type PgliteLike = {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows: unknown[] }[]>;
};
type PostgresLike = { unsafe(text: string, values?: unknown[]): Promise<unknown> };

/** JSON arguments go over as text: the drivers disagree on how they serialise plain objects. */
const serialise = (values: unknown[]) =>
  values.map((v) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date) ? JSON.stringify(v) : v,
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
      const result = (await client.unsafe(text, values && values.length > 0 ? serialise(values) : [])) as unknown[];
      // A multi-statement simple query answers one result per statement; pg-boss reads the last.
      const rows = result.length > 0 && Array.isArray(result[0]) ? (result.at(-1) as unknown[]) : result;
      return { rows: [...rows] };
    },
  };
}
