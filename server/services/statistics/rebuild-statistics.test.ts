import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { accounts } from "@/db/schema";
import { QUEUES } from "@/server/queue/queues";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { createTestUser, pollUntil } from "@/test/helpers";
import { expectedItems, writeHistory, type HistoryRecord, type Target } from "@/test/statistics-history";
import { purgeExpiredRecords } from "@/server/services/retention/purge-expired-records";
import { updateAccountSettings } from "../accounts/account-settings";
import { compactStatistics, rebuildStatistics, requeueLostRebuilds } from "./maintain-statistics";
import { queryStatistics } from "./query-statistics";

const onPostgres = Boolean(process.env.DATABASE_URL);

async function newTarget(): Promise<Target & { actor: { userId: string; isStaff: boolean } }> {
  const user = await createTestUser();
  const db = await getDb();
  const actor = { userId: user.userId, isStaff: false };
  const profile = await createCourierProfile(db, actor, { accountId: user.accountId, courier: "sandbox", name: "A" });
  return { accountId: user.accountId, profileIds: [profile.id], actor };
}

const history: HistoryRecord[] = [
  { kind: "order", at: new Date("2026-06-01T22:30:00Z"), pair: ["shop", "cz"], profile: 0 },
  { kind: "refused", at: new Date("2026-06-02T23:30:00Z"), pair: ["shop", "cz"], profile: 0 },
  { kind: "validation", at: new Date("2026-06-01T23:59:00Z"), pair: ["shop", "cz"], profile: null, status: "OK" },
];
const ask = { from: "2026-05-30", to: "2026-06-05", groupBy: "day" as const, by: ["sourcePair" as const] };

/** `promise`, or a rejection naming `what` when it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe("statistics rebuilds", () => {
  it("queues one rebuild for several time-zone changes in a row", async () => {
    const t = await newTarget();
    const db = await getDb();
    for (const timeZone of ["America/New_York", "Asia/Tokyo", "UTC", "Europe/London", "America/Chicago"]) {
      await updateAccountSettings(db, t.actor, t.accountId, { timeZone });
    }
    const [jobs] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pgboss.job where name = ${QUEUES.statisticsRebuild} and data->>'accountId' = ${t.accountId}`,
      ),
    );
    expect(jobs!.n).toBe(1);
    // The one rebuild counts in the zone of the last change.
    await writeHistory(t, history);
    await rebuildStatistics(db, t.accountId);
    expect((await queryStatistics(db, t.accountId, ask)).items).toEqual(
      expectedItems(t, "America/Chicago", history, ask),
    );
  });

  it("queues again the rebuild of an account whose job was lost, once", async () => {
    const t = await newTarget();
    const db = await getDb();
    const jobs = async () =>
      rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from pgboss.job where name = ${QUEUES.statisticsRebuild} and data->>'accountId' = ${t.accountId}`,
        ),
      )[0]!.n;
    // Asked for two minutes ago, and no job for it (it failed its last retry, or an older version's was dropped).
    await db
      .update(accounts)
      .set({ statisticsRebuildSince: new Date(Date.now() - 120_000) })
      .where(eq(accounts.id, t.accountId));
    // (Another test file's worker may requeue it first: its compaction job runs this every minute.)
    await requeueLostRebuilds(db);
    expect(await jobs()).toBe(1);
    await requeueLostRebuilds(db);
    expect(await jobs()).toBe(1);
  });

  it("keeps the counted figures of validation results and refused attempts that retention removed", async () => {
    const t = await newTarget();
    const db = await getDb();
    // Long before anything of the other tests, so that the purge below (with its own `now`) removes only these.
    const old: HistoryRecord[] = [
      { kind: "order", at: new Date("1990-01-10T22:30:00Z"), pair: ["shop", "cz"], profile: 0 },
      { kind: "refused", at: new Date("1990-01-11T10:00:00Z"), pair: ["shop", "cz"], profile: 0 },
      { kind: "validation", at: new Date("1990-01-12T10:00:00Z"), pair: ["shop", "cz"], profile: null, status: "OK" },
      { kind: "validation", at: new Date("1990-01-12T11:00:00Z"), pair: ["shop", "sk"], profile: 0, status: "ERROR" },
      { kind: "validation", at: new Date("1990-04-20T10:00:00Z"), pair: ["shop", "cz"], profile: null, status: "OK" },
      { kind: "refused", at: new Date("1990-04-21T10:00:00Z"), pair: ["shop", "cz"], profile: 0 },
    ];
    await writeHistory(t, old);
    const period = { from: "1990-01-01", to: "1990-06-30", groupBy: "day" as const, by: ["sourcePair" as const] };
    const purged = await purgeExpiredRecords(db, new Date("1990-05-01T00:00:00Z"));
    expect(purged).toMatchObject({ refusedAttempts: 1, validationResults: 2 });

    // Recounted in the same zone: the same figures, those of the removed records included.
    await rebuildStatistics(db, t.accountId);
    expect((await queryStatistics(db, t.accountId, period)).items).toEqual(
      expectedItems(t, "Europe/Prague", old, period),
    );
    // In another zone: the orders move (22:30 UTC is the next day in Tokyo), the kept records with them.
    await db.update(accounts).set({ timeZone: "Asia/Tokyo" }).where(eq(accounts.id, t.accountId));
    await rebuildStatistics(db, t.accountId);
    expect((await queryStatistics(db, t.accountId, period)).items).toEqual(expectedItems(t, "Asia/Tokyo", old, period));
  });

  describe.runIf(onPostgres)("beside each other (PostgreSQL)", () => {
    it("holds only its own account: another account's rebuild and compaction go on while one runs", async () => {
      const db = await getDb();
      const [a, b] = [await newTarget(), await newTarget()];
      await writeHistory(a, history);
      await writeHistory(b, history);
      await db.update(accounts).set({ timeZone: "Asia/Tokyo" }).where(eq(accounts.id, a.accountId));
      await db.update(accounts).set({ timeZone: "America/Los_Angeles" }).where(eq(accounts.id, b.accountId));

      // A's rebuild is held mid-way: its account row is locked elsewhere, and its insert's foreign key waits for it.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding = () => {};
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = db.transaction(async (tx) => {
        await tx.execute(sql`select id from accounts where id = ${a.accountId} for update`);
        holding();
        await released;
      });
      await held;
      const rebuildA = rebuildStatistics(db, a.accountId);
      try {
        const waiting = await pollUntil(
          async () =>
            rowsOf<{ n: number }>(
              await db.execute(
                sql`select count(*)::int as n from pg_stat_activity
                    where wait_event_type = 'Lock' and datname = current_database()
                      and query like 'insert into statistics_daily select % from statistics_from_records%'`,
              ),
            )[0]!.n,
          (n) => n > 0,
        );
        expect(waiting).toBeGreaterThan(0);

        await within(rebuildStatistics(db, b.accountId), 10_000, "B's rebuild beside A's");
        expect((await queryStatistics(db, b.accountId, ask)).items).toEqual(
          expectedItems(b, "America/Los_Angeles", history, ask),
        );
        await writeHistory(b, [...history, ...history], { from: history.length });
        await within(compactStatistics(db), 10_000, "Compaction beside A's rebuild");
        const [left] = rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from statistics_deltas where account_id = ${b.accountId}`),
        );
        expect(left!.n).toBe(0);
      } finally {
        release();
        await holder;
      }
      expect(await within(rebuildA, 10_000, "A's rebuild once released")).toBe(true);
      expect((await queryStatistics(db, a.accountId, ask)).items).toEqual(expectedItems(a, "Asia/Tokyo", history, ask));
    });
  });
});
