import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Db } from "@/db/client";
import { pgliteExtensions } from "@/db/pglite";
import * as schema from "@/db/schema";

export const MIGRATIONS = path.resolve("db/migrations");

/** A copy of the migrations folder whose journal stops before migration `idx`: the database as it was before it. */
export function migrationsBefore(idx: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sop-migrations-"));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < idx);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

export type MigrationTarget = { db: Db; migrate: (folder: string) => Promise<void>; close: () => Promise<void> };

/** An empty database to migrate step by step: PGlite in memory, and a fresh PostgreSQL database with DATABASE_URL. */
export function migrationTargets(): [string, () => Promise<MigrationTarget>][] {
  const targets: [string, () => Promise<MigrationTarget>][] = [["PGlite", pglite]];
  const base = process.env.DATABASE_URL;
  if (base) targets.push(["PostgreSQL", () => postgresDatabase(base)]);
  return targets;
}

async function pglite(): Promise<MigrationTarget> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = await PGlite.create({ extensions: await pgliteExtensions() });
  const db = drizzle({ client, schema });
  return {
    db: db as unknown as Db,
    migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

async function postgresDatabase(base: string): Promise<MigrationTarget> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const name = `sop_migration_${process.pid}_${Date.now()}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 2, onnotice: () => {} });
  const db = drizzle({ client, schema });
  return {
    db: db as unknown as Db,
    migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
    close: async () => {
      await client.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
