import { getDb, openPostgres, type Db } from "@/db/client";

/**
 * A database of the test file's own, for tests that own whole tables (the pickup-point directory's sync closes every
 * row its feed does not list, which would close another file's points in the run's shared database). On PostgreSQL
 * a fresh database beside the run's, migrated, dropped at the end; PGlite is already one per test file.
 */
export async function ownDatabase(): Promise<{ db: Db; close: () => Promise<void> }> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return { db: await getDb(), close: async () => {} };
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const name = `${new URL(shared).pathname.slice(1)}_own_${process.pid}_${Date.now()}`;
  const admin = postgres(shared, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await migrate(drizzle({ client }), { migrationsFolder: "db/migrations" });
  await client.end();
  const handle = await openPostgres(url.toString(), 4);
  return {
    db: handle.db,
    close: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
