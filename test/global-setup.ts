import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type { Db } from "@/db/client";
import { prepareJobs } from "@/server/jobs/boss";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string | null;
    pgliteSnapshot: string | null;
  }
}

/**
 * One database for the run. With DATABASE_URL: a fresh database on that PostgreSQL server, migrated, and
 * dropped afterwards. Without: one migrated PGlite snapshot that every test file loads into memory.
 */
export default async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL;
  const migrationsFolder = path.resolve("db/migrations");
  if (base) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const name = `sop_test_${Date.now()}_${process.pid}`;
    // Through a transaction-mode pooler (CI runs the suites once through PgBouncer): unnamed statements only.
    const prepare = process.env.DATABASE_POOLER !== "transaction";
    const admin = postgres(base, { max: 1, onnotice: () => {}, prepare });
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), { max: 1, onnotice: () => {}, prepare });
    await migrate(drizzle({ client }), { migrationsFolder });
    await prepareJobs(drizzle({ client }) as unknown as Db);
    await client.end();
    project.provide("databaseUrl", url.toString());
    project.provide("pgliteSnapshot", null);
    return async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { pgliteExtensions } = await import("@/db/pglite");
  const pg = await PGlite.create({ extensions: await pgliteExtensions() });
  await migrate(drizzle({ client: pg }), { migrationsFolder });
  await prepareJobs(drizzle({ client: pg }) as unknown as Db);
  const dump = await pg.dumpDataDir("none");
  await pg.close();
  const file = path.join(mkdtempSync(path.join(tmpdir(), "sop-pglite-")), "snapshot.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("databaseUrl", null);
  project.provide("pgliteSnapshot", file);
}
