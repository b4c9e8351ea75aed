import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows, type Db } from "@/db/client";
import { pgliteExtensions } from "@/db/pglite";
import * as schema from "@/db/schema";
import { listEvents } from "@/server/services/events/list-events";
import { recordEvents } from "@/server/services/events/record-events";

/**
 * Migration 0014 (event feed positions) on a database that has events and purge marks from before it: the
 * cursors partners hold (event ids, purge marks) keep their place, on PGlite and, with DATABASE_URL, on
 * PostgreSQL.
 */

const MIGRATIONS = path.resolve("db/migrations");
const FEED_MIGRATION = 14;

/** The migrations folder as it was before the feed positions: the journal cut before 0014. */
function migrationsBefore(idx: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sop-migrations-"));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < idx);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

type Target = { db: Db; migrate: (folder: string) => Promise<void>; close: () => Promise<void> };

async function pglite(): Promise<Target> {
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

async function postgresDatabase(base: string): Promise<Target> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const name = `sop_feed_migration_${process.pid}_${Date.now()}`;
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

const before = migrationsBefore(FEED_MIGRATION);
afterAll(() => rmSync(before, { recursive: true, force: true }));

const targets: [string, () => Promise<Target>][] = [["PGlite", pglite]];
if (process.env.DATABASE_URL) targets.push(["PostgreSQL", () => postgresDatabase(process.env.DATABASE_URL!)]);

describe.each(targets)("migration 0014 on %s", (_name, open) => {
  it("numbers existing events in the order the feed showed them, so old cursors and purge marks continue", async () => {
    const target = await open();
    try {
      const { db } = target;
      await target.migrate(before);
      const account = async (name: string) =>
        (await queryRows<{ id: string }>(db, `insert into accounts (name) values ($1) returning id`, [name]))[0]!.id;
      const x = await account("Before");
      const y = await account("Neighbour");
      // Events as the old feed ordered them, by (tx_id, seq): a transaction that committed late has a smaller
      // transaction id and a larger seq than events written meanwhile.
      const event = async (accountId: string, txId: number, seq: number) =>
        (
          await queryRows<{ id: string }>(
            db,
            `insert into events (account_id, type, data, tx_id, seq)
             values ($1, 'shipping_order.created', '{}'::jsonb, $2::text::xid8, $3) returning id`,
            [accountId, String(txId), seq],
          )
        )[0]!.id;
      const e1 = await event(x, 1000, 10);
      const e2 = await event(x, 1000, 11);
      const e3 = await event(x, 999, 12);
      const e4 = await event(x, 1001, 9);
      const y1 = await event(y, 1000, 13);
      const y2 = await event(y, 998, 1);
      // The purge removed X's events up to (999, 13) and Y's up to (997, 5).
      const purgedX = crypto.randomUUID();
      const purgedY = crypto.randomUUID();
      await queryRows(
        db,
        `insert into event_purge_marks (account_id, event_id, tx_id, seq) values ($1, $2, '999'::xid8, 13)`,
        [x, purgedX],
      );
      await queryRows(
        db,
        `insert into event_purge_marks (account_id, event_id, tx_id, seq) values ($1, $2, '997'::xid8, 5)`,
        [y, purgedY],
      );

      await target.migrate(MIGRATIONS);

      const ids = async (accountId: string, after?: string) =>
        (await listEvents(db, accountId, { after, limit: 100 })).items.map((e) => e.id);
      expect(await ids(x)).toEqual([e3, e1, e2, e4]);
      expect(await ids(x, e1)).toEqual([e2, e4]);
      expect(await ids(x, e3)).toEqual([e1, e2, e4]);
      expect(await ids(x, purgedX)).toEqual([e1, e2, e4]);
      expect(await ids(y)).toEqual([y2, y1]);
      expect(await ids(y, purgedY)).toEqual([y2, y1]);
      expect(await ids(y, y2)).toEqual([y1]);
      // Events written after the migration come after every event numbered by it.
      const [later] = await db.transaction((tx) =>
        recordEvents(tx, x, [
          { type: "shipping_order.created", referenceSource: null, sourceIdentifier: null, data: { n: 5 } },
        ]),
      );
      expect(await ids(x, e4)).toEqual([later]);
      const [row] = await queryRows<{ unnumbered: number }>(
        db,
        `select count(*)::int as unnumbered from events where position is null`,
        [],
      );
      expect(row!.unnumbered).toBe(0);
    } finally {
      await target.close();
    }
  }, 120_000);
});
