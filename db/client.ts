import path from "node:path";
import { mkdirSync, readFileSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import * as schema from "./schema";
import { env } from "@/server/env";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Db | Tx;

type Handle = { db: Db; close: () => Promise<void>; kind: "postgres" | "pglite" };

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

async function open(): Promise<Handle> {
  const { DATABASE_URL, DATA_DIR, DATABASE_POOL_MAX } = env();
  if (DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(DATABASE_URL, {
      max: DATABASE_POOL_MAX,
      onnotice: () => {},
      connection: { application_name: "shipping-order-platform", statement_timeout: 30_000 },
    });
    return { db: drizzle({ client, schema }) as unknown as Db, close: () => client.end({ timeout: 5 }), kind: "postgres" };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const snapshot = process.env.PGLITE_SNAPSHOT;
  let client: InstanceType<typeof PGlite>;
  if (snapshot) {
    // Tests: every worker starts from one migrated snapshot, in memory.
    client = await PGlite.create({ loadDataDir: new Blob([readFileSync(snapshot)]) });
  } else {
    const dir = path.resolve(DATA_DIR, "pglite");
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir);
  }
  return { db: drizzle({ client, schema }) as unknown as Db, close: () => client.close(), kind: "pglite" };
}

/** Rows of a raw `db.execute`, whose result shape differs between postgres.js (an array) and PGlite (`{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
