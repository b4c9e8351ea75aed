import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type { Db } from "@/db/client";
import { prepareJobs } from "@/server/jobs/boss";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string | null;
    /** A direct connection (never through a pooler) to the server's maintenance database, for creating databases. */
    adminUrl: string | null;
    pgliteSnapshot: string | null;
  }
}

/**
 * The run's databases. With DATABASE_URL: a fresh database on that PostgreSQL server, migrated, as the template of one
 * database per Vitest worker (`<name>_w<VITEST_POOL_ID>`, made by test/setup.ts), so files running at the same time
 * never see each other's rows or jobs; all are dropped afterwards. Without: one migrated PGlite snapshot that every
 * test file loads into memory.
 */
export default async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL;
  const migrationsFolder = path.resolve("db/migrations");
  if (base) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const name = `sop_test_${Date.now()}_${process.pid}`;
    // Databases are made and the template migrated on a direct connection (TEST_DATABASE_ADMIN_URL when the suites
    // run through a pooler): PostgreSQL copies a template only while nobody is connected to it, and a pooler keeps
    // its server connections open after the client has gone.
    const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? base;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const direct = new URL(adminUrl);
    direct.pathname = `/${name}`;
    const client = postgres(direct.toString(), { max: 1, onnotice: () => {} });
    await migrate(drizzle({ client }), { migrationsFolder });
    await prepareJobs(drizzle({ client }) as unknown as Db);
    await client.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    project.provide("databaseUrl", url.toString());
    project.provide("adminUrl", adminUrl);
    project.provide("pgliteSnapshot", null);
    return async () => {
      const made = await admin<{ datname: string }[]>`
        select datname from pg_database where datname = ${name} or datname like ${`${name}\\_w%`}`;
      for (const { datname } of made) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
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
  project.provide("adminUrl", null);
  project.provide("pgliteSnapshot", file);
}
