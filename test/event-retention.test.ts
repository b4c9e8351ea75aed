import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres, { type Sql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { createUser } from "@/server/services/accounts/create-user";
import { listEvents } from "@/server/services/events/list-events";
import { purgeExpiredEvents } from "@/server/services/events/purge-expired-events";
import { recordEvents } from "@/server/services/events/record-events";
import { migrateCluster, startCluster, type Cluster } from "@/test/pg-cluster";

/**
 * Retention and the pull feed on a throwaway PostgreSQL cluster (concurrent transactions need a real server): the
 * purge of a large backlog finishes in short batches while the feed keeps showing new events; a cursor whose event
 * was purged continues when nothing after it was lost; a long transaction of another role does not freeze the feed.
 */

let cluster: Cluster;
let client: Sql;
let db: Db;

beforeAll(async () => {
  cluster = await startCluster();
  await migrateCluster(cluster.url);
  client = postgres(cluster.url, { max: 6, onnotice: () => {} });
  db = drizzle({ client, schema }) as unknown as Db;
}, 120_000);

afterAll(async () => {
  await client?.end({ timeout: 5 });
  await cluster?.destroy();
}, 60_000);

const account = async (name: string) =>
  (
    await createUser(db, {
      email: `${name}-${crypto.randomUUID()}@test.example`,
      password: "correct horse battery",
      accountName: name,
    })
  ).accountId;

const newEvent = async (accountId: string, ref: string) =>
  (
    await db.transaction((tx) =>
      recordEvents(tx, accountId, [
        {
          type: "shipping_order.courier_rejected",
          referenceSource: "api",
          sourceIdentifier: "default",
          data: { referenceNumber: ref, code: "COURIER_REJECTED" },
        },
      ]),
    )
  )[0]!;

const feed = (accountId: string, after?: string) => listEvents(db, accountId, { after, limit: 100 });

/** Milliseconds until an event just committed shows in the feed after `after`. */
async function lagOfNewEvent(accountId: string, after: string | undefined, ref: string): Promise<number> {
  const id = await newEvent(accountId, ref);
  const started = performance.now();
  for (;;) {
    const page = await feed(accountId, after);
    if (page.items.some((e) => e.id === id)) return performance.now() - started;
    if (performance.now() - started > 30_000) throw new Error(`event ${ref} never showed`);
  }
}

const ageEvents = (accountId: string) =>
  db.execute(sql`update events set created_at = now() - interval '40 days' where account_id = ${accountId}`);

describe("the retention purge", () => {
  it("removes 200,000 expired events in short batches while the feed keeps answering new events", async () => {
    const busy = await account("Backlog");
    const watcher = await account("Watcher");
    await db.execute(sql`
      insert into events (account_id, type, data, created_at)
      select ${busy}::uuid, 'shipping_order.created', '{}'::jsonb, now() - interval '40 days' - make_interval(secs => g)
      from generate_series(1, 200000) g`);
    let purging = true;
    const purge = purgeExpiredEvents(db).finally(() => (purging = false));
    const lags: number[] = [];
    let last: string | undefined;
    while (purging) {
      lags.push(await lagOfNewEvent(watcher, last, `W-${lags.length}`));
      last = (await feed(watcher, last)).items.at(-1)?.id ?? last;
    }
    expect(await purge).toBe(200_000);
    const [left] = await client<{ n: number }[]>`select count(*)::int as n from events where account_id = ${busy}`;
    expect(left!.n).toBe(0);
    // Every new event showed at once, however long the purge ran.
    expect(lags.length).toBeGreaterThan(0);
    expect(Math.max(...lags)).toBeLessThan(1500);
  }, 120_000);
});

describe("a cursor whose event the purge removed", () => {
  it("continues after it when it was the account's last removed event, and is gone (400) when later ones went too", async () => {
    const idle = await account("Idle");
    const first = await newEvent(idle, "I-1");
    const lastRead = await newEvent(idle, "I-2");
    expect((await feed(idle, first)).items.map((e) => e.id)).toEqual([lastRead]);
    await ageEvents(idle);
    expect(await purgeExpiredEvents(db)).toBeGreaterThanOrEqual(2);
    // The client had read I-2, the newest event removed: nothing was lost, the feed goes on.
    expect(await feed(idle, lastRead)).toEqual({ items: [], next: null });
    const later = await newEvent(idle, "I-3");
    expect((await feed(idle, lastRead)).items.map((e) => e.id)).toEqual([later]);
    // A client still at I-1 never saw I-2, which is gone: it must start again.
    await expect(feed(idle, first)).rejects.toMatchObject({ code: "bad_request" });
    // Never another account's mark.
    const other = await account("Other");
    await expect(feed(other, lastRead)).rejects.toMatchObject({ code: "bad_request" });
  });
});

describe("a long transaction of another role", () => {
  it("never holds the feed back, for a reader whose role cannot see the other session (no pg_read_all_stats)", async () => {
    // The app as a production role: no superuser, no pg_read_all_stats, so pg_stat_activity shows it NULL for
    // another role's transaction. A reporting role holds a transaction with a transaction id open throughout.
    await client.unsafe(`
      create role feed_app login;
      grant all on all tables in schema public to feed_app;
      grant all on all sequences in schema public to feed_app;
      create role reporter login;`);
    const appUrl = new URL(cluster.url);
    appUrl.username = "feed_app";
    const appClient = postgres(appUrl.toString(), { max: 4, onnotice: () => {} });
    const app = drizzle({ client: appClient, schema }) as unknown as Db;
    const reporterUrl = new URL(cluster.url);
    reporterUrl.username = "reporter";
    const reporter = postgres(reporterUrl.toString(), { max: 1, onnotice: () => {} });
    const watcher = await account("Patient");
    let last = await newEvent(watcher, "P-0");
    try {
      const long = await reporter.reserve();
      try {
        await long`begin`;
        await long`create temporary table report (n int)`;
        await long`insert into report values (1)`;
        const [seen] = await appClient<{ xactStart: Date | null }[]>`
          select xact_start as "xactStart" from pg_stat_activity where usename = 'reporter' and backend_xid is not null`;
        expect(seen).toEqual({ xactStart: null });
        for (let i = 1; i <= 5; i++) {
          const id = await newEvent(watcher, `P-${i}`);
          const started = performance.now();
          const page = await listEvents(app, watcher, { after: last, limit: 100 });
          expect(performance.now() - started).toBeLessThan(2000);
          expect(page.items.map((e) => e.id)).toEqual([id]);
          last = id;
        }
        const [open] = await client<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity where usename = 'reporter' and state = 'idle in transaction'`;
        expect(open!.n).toBe(1);
      } finally {
        await long`rollback`;
        long.release();
      }
    } finally {
      await appClient.end({ timeout: 5 });
      await reporter.end({ timeout: 5 });
    }
  }, 60_000);
});
