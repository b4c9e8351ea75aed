import path from "node:path";
import { sql } from "drizzle-orm";
import { env } from "@/server/env";
import { handle, type Db } from "./client";

export const migrationsFolder = path.resolve(process.cwd(), "db/migrations");

/**
 * Applies the committed drizzle-kit migrations, then `after` on the same connection (server/migrate.ts: the job
 * queue's schema, the stored secrets). On PostgreSQL that dedicated single connection holds an advisory lock for
 * both, so app instances starting together do not race; PGlite has one process by construction.
 */
export async function applyMigrations(after: (db: Db) => Promise<void>): Promise<void> {
  const { DATABASE_URL, DATABASE_DIRECT_URL, DATABASE_POOLER } = env();
  if (!DATABASE_URL) {
    const h = await handle();
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(h.db as never, { migrationsFolder });
    await after(h.db);
    return;
  }
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
  // Behind a transaction-mode pooler a session lock would stay on whichever server connection took it: migrations
  // go straight to PostgreSQL when DATABASE_DIRECT_URL says where, else through the pooler without the lock (run
  // them from one place, e.g. a release step, in that case).
  const direct = DATABASE_DIRECT_URL ?? (DATABASE_POOLER === "transaction" ? null : DATABASE_URL);
  const client = postgres(direct ?? DATABASE_URL, {
    max: 1,
    onnotice: () => {},
    ...(direct ? {} : { prepare: false }),
  });
  const db = drizzle({ client });
  try {
    if (direct) await db.execute(sql`select pg_advisory_lock(727274)`);
    await run(db, { migrationsFolder });
    await after(db as unknown as Db);
    if (direct) await db.execute(sql`select pg_advisory_unlock(727274)`);
  } finally {
    await client.end({ timeout: 5 });
  }
}
