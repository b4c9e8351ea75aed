import { afterAll } from "vitest";
import { closeDb, getDb, openPostgres, type Db } from "@/db/client";

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

/**
 * Points the whole test file (routes, services, `getDb()`) at a database of its own, for files that write what every
 * other file's orders are validated against (a courier's directory marked synced makes every made-up `PickupPoint`
 * of other files unknown). Call at the top of the file, before anything opens the database. PGlite: nothing to do.
 */
export async function runOnOwnDatabase(): Promise<void> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return;
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const { prepareJobs } = await import("@/server/jobs/boss");
  const name = `${new URL(shared).pathname.slice(1)}_own_${process.pid}_${Date.now()}`;
  const prepare = process.env.DATABASE_POOLER !== "transaction";
  const admin = postgres(shared, { max: 1, onnotice: () => {}, prepare });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {}, prepare });
  await migrate(drizzle({ client }), { migrationsFolder: "db/migrations" });
  await prepareJobs(drizzle({ client }) as unknown as Db);
  await client.end();
  process.env.DATABASE_URL = url.toString();
  afterAll(async () => {
    await closeDb();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });
}
