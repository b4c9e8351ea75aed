import path from "node:path";
import { mkdirSync, readFileSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import * as schema from "./schema";
import { currentEnv, env } from "@/server/env";
import { reservedTransactions } from "./reserved-transactions";
import { pgliteExtensions } from "./pglite";
import { absorbTypeFetchRejections } from "./type-fetch-rejections";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Db | Tx;

export type PoolStats = { max: number; idle: number; busy: number; reserved: number; connecting: number };

type Handle = {
  db: Db;
  close: () => Promise<void>;
  kind: "postgres" | "pglite";
  /** postgres.js's pool (patches/postgres+3.4.9.patch exposes it); none for the embedded database. */
  poolStats?: () => PoolStats;
};

// Cached on globalThis so Next's dev reloads and every route share one pool (or one PGlite instance).
const globalForDb = globalThis as unknown as { __sopDb?: Promise<Handle> };

/** The process-wide database, opened lazily on first use. */
export function getDb(): Promise<Db> {
  return handle().then((h) => h.db);
}

export function handle(): Promise<Handle> {
  globalForDb.__sopDb ??= open().catch((error: unknown) => {
    globalForDb.__sopDb = undefined;
    throw error;
  });
  return globalForDb.__sopDb;
}

export async function closeDb(): Promise<void> {
  const pending = globalForDb.__sopDb;
  globalForDb.__sopDb = undefined;
  if (pending) await (await pending).close();
}

/**
 * drizzle sends every query unnamed (`prepare: false`), so postgres.js first has the server describe each
 * parameterised statement and only then runs it: two round trips and a fresh parse per query. Named
 * statements are described once per connection and reused, one round trip each: the API-key lookup went
 * from 0.40 to 0.15 ms p50 (bench/results.md). Only statements with few parameters are named, so each
 * connection caches the app's fixed set of query shapes, not every multi-row insert. `?prepare=false` in
 * DATABASE_URL (e.g. behind PgBouncer in transaction mode) still turns it off: postgres.js checks that first.
 */
const MAX_NAMED_PARAMETERS = 100;
/**
 * A statement that matches a text pattern sent as a parameter (`like $1`) is never named. A named statement is planned
 * once for all values after five runs (a generic plan), and a pattern's selectivity is all in its value: the pickup
 * points' text search, generic, read the whole directory for a word found nowhere (40 ms for "hlavni"), where the
 * trigram index answers it in 3 ms; unnamed, each search is planned for its own words (bench/pickup-points.ts).
 */
const PATTERN_MATCH = /\s(?:i?like|similar to)\s+\$\d/i;

function namedStatements<T extends object>(sql: T): T {
  type Fn = (...args: unknown[]) => unknown;
  const target = sql as unknown as Record<"unsafe" | "begin" | "savepoint", Fn | undefined>;
  const unsafe = target.unsafe!;
  target.unsafe = (query, args = [], options = {}, ...rest) =>
    Array.isArray(args)
      ? unsafe(query, args, {
          ...(options as object),
          prepare: args.length > 0 && args.length <= MAX_NAMED_PARAMETERS && !PATTERN_MATCH.test(query as string),
        })
      : unsafe(query, args, options, ...rest);
  // Transactions and savepoints run on a scoped client of their own: name their statements too.
  for (const name of ["begin", "savepoint"] as const) {
    const scoped = target[name];
    if (!scoped) continue;
    target[name] = (...args) => {
      const fn = args.at(-1);
      if (typeof fn !== "function") return scoped(...args);
      return scoped(...args.slice(0, -1), (inner: object) => (fn as Fn)(namedStatements(inner)));
    };
  }
  return sql;
}

/**
 * A postgres.js pool as the app uses it, with its Drizzle handle: named statements, transactions on reserved
 * connections, and timeouts that keep a fault from holding a connection.
 */
export async function openPostgres(
  url: string,
  max: number,
  {
    pooler = "none",
    reserveTimeoutMs,
  }: {
    pooler?: "none" | "transaction";
    /** Tests: a transaction's wait for a connection. */ reserveTimeoutMs?: number;
  } = {},
): Promise<Handle> {
  absorbTypeFetchRejections();
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const pooled = pooler === "transaction";
  const pool = reservedTransactions(
    postgres(url, {
      max,
      onnotice: () => {},
      // Behind a pooler in transaction mode a named statement would be prepared on one server connection and
      // executed on another: every statement is unnamed there.
      ...(pooled ? { prepare: false } : {}),
      connection: pooled
        ? // Session settings would stay on whichever server connection they landed on: the pooler sets the
          // timeouts on its own connections (ops/pgbouncer/pgbouncer.ini, connect_query).
          { application_name: "shipping-order-platform" }
        : {
            application_name: "shipping-order-platform",
            statement_timeout: 30_000,
            // A transaction no code is driving any more (a bug, a lost error path) gives its connection and locks
            // back within a minute instead of holding them until the app restarts.
            idle_in_transaction_session_timeout: 60_000,
            // No JIT compilation: the app's statements are short and planned with estimates that can be far off (a
            // lateral over a JSON parameter is costed at 100 rows), which put a batch's pickup-point suggestions over
            // jit_above_cost and spent 54 ms compiling a 15 ms query (bench/pickup-points.ts). The usual OLTP setting.
            jit: "off",
          },
      // While PostgreSQL is down a request should fail fast with 503, and the pool come back as soon as it is up:
      // postgres.js's own backoff grows to 20 s (shared by the pool) and holds every query routed to a closed
      // connection that long; its connect timeout is 30 s.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
      connect_timeout: 5,
    }),
    { reserveTimeoutMs },
  );
  const client = pooled ? pool : namedStatements(pool);
  return {
    db: drizzle({ client, schema }) as unknown as Db,
    close: () => client.end({ timeout: 5 }),
    kind: "postgres",
    poolStats: () => (pool as unknown as { poolStats: () => PoolStats }).poolStats(),
  };
}

async function open(): Promise<Handle> {
  const { DATABASE_URL, DATA_DIR, DATABASE_POOL_MAX, DATABASE_POOLER } = env();
  if (DATABASE_URL) return openPostgres(DATABASE_URL, DATABASE_POOL_MAX, { pooler: DATABASE_POOLER });
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const snapshot = currentEnv.PGLITE_SNAPSHOT;
  const extensions = await pgliteExtensions();
  let client: InstanceType<typeof PGlite>;
  if (snapshot) {
    // Tests: every worker starts from one migrated snapshot, in memory.
    client = await PGlite.create({ loadDataDir: new Blob([readFileSync(snapshot)]), extensions });
  } else {
    const dir = path.resolve(DATA_DIR, "pglite");
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir, { extensions });
  }
  return { db: drizzle({ client, schema }) as unknown as Db, close: () => client.close(), kind: "pglite" };
}

const preparedQueries = new WeakMap<object, Map<string, unknown>>();

/**
 * A drizzle query built once per database handle (or per transaction) and reused with new placeholder values:
 * drizzle's query building (its `is()` checks, buildQueryFromSourceParams) was the largest JavaScript cost of a
 * request (bench/results.md). `name` identifies the call site.
 */
export function prepared<T>(db: Executor, name: string, build: (db: Executor) => T): T {
  let queries = preparedQueries.get(db);
  if (!queries) preparedQueries.set(db, (queries = new Map()));
  let query = queries.get(name) as T | undefined;
  if (query === undefined) queries.set(name, (query = build(db)));
  return query;
}

/** `{a,b,c}`: ids (uuids, never quoted) as one array parameter, so a statement's text does not vary with their count. */
export const uuidArray = (ids: readonly string[]): string => `{${ids.join(",")}}`;

type PostgresJsClient = { unsafe: (query: string, params: unknown[]) => Promise<unknown[]> };
type PGliteClient = { query: (query: string, params: unknown[]) => Promise<{ rows: unknown[] }> };

/**
 * Runs a statement written once as text straight on the driver: no drizzle query building or result mapping
 * per call (drizzle's `is()` checks were the largest JavaScript cost per request, bench/results.md), and on
 * postgres.js a named statement. Any executor: inside a transaction the statement goes to the transaction's
 * own connection (the driver client of drizzle's session). Only for hot statements whose results hold no
 * timestamps (drizzle's postgres.js driver turns off their parsing).
 */
export async function queryRows<T>(executor: Executor, text: string, params: unknown[]): Promise<T[]> {
  const client = (executor as unknown as { session: { client: PostgresJsClient | PGliteClient } }).session.client;
  if ("unsafe" in client) return (await client.unsafe(text, params)) as T[];
  return (await client.query(text, params)).rows as T[];
}

/** Rows of a raw `db.execute`, whose result shape differs between postgres.js (an array) and PGlite (`{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
