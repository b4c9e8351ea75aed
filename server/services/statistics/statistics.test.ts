import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { accounts } from "@/db/schema";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { createTestUser } from "@/test/helpers";
import {
  expectedItems,
  writeHistory,
  type Ask,
  type HistoryRecord,
  type Pair,
  type Target,
} from "@/test/statistics-history";
import { updateAccountSettings } from "../accounts/account-settings";
import { compactStatistics, rebuildStatistics } from "./maintain-statistics";
import { addDays, queryStatistics, statisticsByAccount } from "./query-statistics";
import type { StatisticsItem } from "./schemas";

async function newTarget(timeZone: string): Promise<Target & { actor: { userId: string; isStaff: boolean } }> {
  const user = await createTestUser();
  const db = await getDb();
  const actor = { userId: user.userId, isStaff: false };
  const profileIds: string[] = [];
  for (const name of ["A", "B"]) {
    const p = await createCourierProfile(db, actor, { accountId: user.accountId, courier: "sandbox", name });
    profileIds.push(p.id);
  }
  await db.update(accounts).set({ timeZone }).where(eq(accounts.id, user.accountId));
  return { accountId: user.accountId, profileIds, actor };
}

const at = (iso: string) => new Date(iso);
const SHOP_CZ: Pair = ["shop", "cz"];
const SHOP_SK: Pair = ["shop", "sk"];

/** Sorted as the oracle sorts (code points, nulls as ""), so the comparison does not depend on the database's collation. */
const sorted = (items: StatisticsItem[]) =>
  items.toSorted((a, b) => {
    const key = (i: StatisticsItem) =>
      [i.period, i.referenceSource ?? "", i.sourceIdentifier ?? "", i.courier ?? "", i.courierProfile ?? ""].join(
        "\u0000",
      );
    return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  });

const zero = {
  created: 0,
  replaced: 0,
  cancelled: 0,
  refused: 0,
  delivered: 0,
  returned: 0,
  validations: { ok: 0, warning: 0, error: 0 },
  cod: [],
};
const row = (period: string, pair: Pair, figures: Partial<StatisticsItem>): StatisticsItem => ({
  period,
  referenceSource: pair[0],
  sourceIdentifier: pair[1],
  courier: null,
  courierProfile: null,
  ...zero,
  ...figures,
});

/**
 * A week of March 2026 (the US is on summer time from the 8th, so New York is UTC-4; Prague UTC+1). Each record
 * sits near a midnight that one of the two zones puts on another day.
 */
const week: HistoryRecord[] = [
  { kind: "order", at: at("2026-03-09T23:30:00Z"), pair: SHOP_CZ, profile: 0, cod: { amount: 100, currency: "CZK" } }, // 0
  { kind: "order", at: at("2026-03-10T10:00:00Z"), pair: SHOP_SK, profile: 1, cod: { amount: 5.5, currency: "EUR" } }, // 1
  { kind: "refused", at: at("2026-03-10T08:00:00Z"), pair: SHOP_CZ, profile: 0 }, // 2
  { kind: "validation", at: at("2026-03-10T08:00:00Z"), pair: SHOP_CZ, profile: 0, status: "OK" }, // 3
  { kind: "validation", at: at("2026-03-10T03:59:00Z"), pair: SHOP_CZ, profile: 0, status: "ERROR" }, // 4
  {
    kind: "order",
    at: at("2026-03-11T12:00:00Z"),
    pair: SHOP_CZ,
    profile: 0,
    replaces: 0,
    cod: { amount: 200, currency: "CZK" },
  }, // 5
  { kind: "validation", at: at("2026-03-11T12:00:00Z"), pair: SHOP_SK, profile: 1, status: "WARNING" }, // 6
  { kind: "delete", at: at("2026-03-12T22:59:00Z"), order: 1 }, // 7
  { kind: "tracking", at: at("2026-03-12T10:00:00Z"), order: 5, status: "IN_TRANSIT" }, // 8
  { kind: "tracking", at: at("2026-03-13T23:10:00Z"), order: 5, status: "DELIVERED" }, // 9
  { kind: "tracking", at: at("2026-03-14T09:00:00Z"), order: 5, status: "DELIVERED" }, // 10: a repeat, not counted again
  { kind: "order", at: at("2026-03-14T03:30:00Z"), pair: SHOP_SK, profile: 0 }, // 11
  { kind: "tracking", at: at("2026-03-15T03:00:00Z"), order: 11, status: "RETURNED" }, // 12
];

/** Orders of another courier (created straight in the table: its adapter is not registered yet). */
const otherCourier: HistoryRecord[] = [
  {
    kind: "order",
    at: at("2026-03-16T09:00:00Z"),
    pair: SHOP_CZ,
    profile: 1,
    courier: "packeta",
    cod: { amount: 80, currency: "CZK" },
  },
  { kind: "order", at: at("2026-03-16T10:00:00Z"), pair: SHOP_CZ, profile: 1, courier: "packeta" },
];

describe("statistics by source pair", () => {
  it("counts a known week by the calendar days of the account's time zone", async () => {
    const prague = await newTarget("Europe/Prague");
    await writeHistory(prague, week);
    const db = await getDb();
    const answer = await queryStatistics(db, prague.accountId, { from: "2026-03-09", to: "2026-03-15" });
    expect(answer).toMatchObject({ from: "2026-03-09", to: "2026-03-15", groupBy: "day", timeZone: "Europe/Prague" });
    expect(sorted(answer.items)).toEqual([
      // 23:30 UTC on the 9th is 00:30 on the 10th in Prague; 03:59 UTC is 04:59.
      // No COD: the order of the 10th was replaced on the 11th, the Slovak one deleted on the 12th.
      row("2026-03-10", SHOP_CZ, { created: 1, refused: 1, validations: { ok: 1, warning: 0, error: 1 } }),
      row("2026-03-10", SHOP_SK, { created: 1 }),
      // The replacement counts as created and replaced; its predecessor as cancelled, on the day it was replaced.
      row("2026-03-11", SHOP_CZ, { created: 1, replaced: 1, cancelled: 1, cod: [{ currency: "CZK", amount: 200 }] }),
      row("2026-03-11", SHOP_SK, { validations: { ok: 0, warning: 1, error: 0 } }),
      // Deleted at 23:59 Prague time.
      row("2026-03-12", SHOP_SK, { cancelled: 1 }),
      row("2026-03-14", SHOP_CZ, { delivered: 1 }),
      row("2026-03-14", SHOP_SK, { created: 1 }),
      row("2026-03-15", SHOP_SK, { returned: 1 }),
    ]);

    // The same records in New York fall on other days.
    const newYork = await newTarget("America/New_York");
    await writeHistory(newYork, week);
    const ny = await queryStatistics(db, newYork.accountId, { from: "2026-03-09", to: "2026-03-15" });
    expect(sorted(ny.items)).toEqual([
      row("2026-03-09", SHOP_CZ, { created: 1, validations: { ok: 0, warning: 0, error: 1 } }),
      row("2026-03-10", SHOP_CZ, { refused: 1, validations: { ok: 1, warning: 0, error: 0 } }),
      row("2026-03-10", SHOP_SK, { created: 1 }),
      row("2026-03-11", SHOP_CZ, { created: 1, replaced: 1, cancelled: 1, cod: [{ currency: "CZK", amount: 200 }] }),
      row("2026-03-11", SHOP_SK, { validations: { ok: 0, warning: 1, error: 0 } }),
      row("2026-03-12", SHOP_SK, { cancelled: 1 }),
      row("2026-03-13", SHOP_CZ, { delivered: 1 }),
      row("2026-03-13", SHOP_SK, { created: 1 }),
      row("2026-03-14", SHOP_SK, { returned: 1 }),
    ]);

    // A week (Monday the 9th) and a month, by courier profile, filtered to one pair.
    const byProfile = await queryStatistics(db, prague.accountId, {
      from: "2026-03-10",
      to: "2026-03-31",
      groupBy: "week",
      by: ["courierProfile"],
      referenceSource: "shop",
      sourceIdentifier: "sk",
    });
    expect(sorted(byProfile.items)).toEqual(
      sorted([
        {
          ...row("2026-03-09", SHOP_SK, { created: 1, cancelled: 1, validations: { ok: 0, warning: 1, error: 0 } }),
          referenceSource: null,
          sourceIdentifier: null,
          courierProfile: prague.profileIds[1]!,
        },
        {
          ...row("2026-03-09", SHOP_SK, { created: 1, returned: 1 }),
          referenceSource: null,
          sourceIdentifier: null,
          courierProfile: prague.profileIds[0]!,
        },
      ]),
    );
    const month = await queryStatistics(db, prague.accountId, {
      from: "2026-03-01",
      to: "2026-03-31",
      groupBy: "month",
      by: ["courier"],
    });
    expect(month.items).toEqual([
      {
        ...row("2026-03-01", SHOP_CZ, {
          created: 4,
          replaced: 1,
          cancelled: 2,
          refused: 1,
          delivered: 1,
          returned: 1,
          validations: { ok: 1, warning: 1, error: 1 },
          // Only the live orders' COD: the replaced 100 CZK and the deleted 5.50 EUR no longer count.
          cod: [{ currency: "CZK", amount: 200 }],
        }),
        referenceSource: null,
        sourceIdentifier: null,
        courier: "sandbox",
      },
    ]);
    // Another courier's orders: their own rows when grouped by courier, summed with the rest when not.
    await writeHistory(prague, otherCourier);
    const couriers = await queryStatistics(db, prague.accountId, {
      from: "2026-03-16",
      to: "2026-03-22",
      groupBy: "week",
      by: ["courier", "sourcePair"],
    });
    expect(couriers.items).toEqual([
      {
        ...row("2026-03-16", SHOP_CZ, { created: 2, cod: [{ currency: "CZK", amount: 80 }] }),
        courier: "packeta",
      },
    ]);
    const all = await queryStatistics(db, prague.accountId, { from: "2026-03-01", to: "2026-03-31", by: ["courier"] });
    expect(new Set(all.items.map((i) => i.courier))).toEqual(new Set(["sandbox", "packeta"]));
    // Outside the records: nothing.
    expect((await queryStatistics(db, prague.accountId, { from: "2026-04-01", to: "2026-04-30" })).items).toEqual([]);
  });

  it("answers the same after the worker compacts the deltas, and after a rebuild", async () => {
    const t = await newTarget("Europe/Prague");
    await writeHistory(t, week);
    const db = await getDb();
    const ask = { from: "2026-03-01", to: "2026-03-31", by: ["sourcePair", "courierProfile"] };
    const before = await queryStatistics(db, t.accountId, ask);
    await compactStatistics(db, { batchSize: 3 });
    const [{ n }] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from statistics_deltas where account_id = ${t.accountId}`),
    ) as [{ n: number }];
    expect(n).toBe(0);
    expect(await queryStatistics(db, t.accountId, ask)).toEqual(before);
    await rebuildStatistics(db, t.accountId);
    expect(await queryStatistics(db, t.accountId, ask)).toEqual(before);
  });

  it("recounts the days in a new time zone: the change queues a rebuild, which the worker's job carries out", async () => {
    const t = await newTarget("Europe/Prague");
    await writeHistory(t, week);
    const db = await getDb();
    const settings = await updateAccountSettings(db, t.actor, t.accountId, { timeZone: "America/New_York" });
    expect(settings).toMatchObject({ timeZone: "America/New_York", statisticsRebuildSince: expect.any(String) });
    const jobs = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pgboss.job where name = 'statistics-rebuild' and data->>'accountId' = ${t.accountId}`,
      ),
    );
    expect(jobs[0]!.n).toBe(1);
    await rebuildStatistics(db, t.accountId);
    const answer = await queryStatistics(db, t.accountId, { from: "2026-03-09", to: "2026-03-15" });
    expect(answer.timeZone).toBe("America/New_York");
    expect(sorted(answer.items)).toEqual(
      sorted(
        expectedItems(t, "America/New_York", week, {
          from: "2026-03-09",
          to: "2026-03-15",
          groupBy: "day",
          by: ["sourcePair"],
        }),
      ),
    );
    const [account] = await db.select().from(accounts).where(eq(accounts.id, t.accountId));
    expect(account!.statisticsRebuildSince).toBeNull();
  });

  it("refuses what it cannot answer, naming the parameter", async () => {
    const t = await newTarget("Europe/Prague");
    const db = await getDb();
    const refusal = (query: Record<string, unknown>) =>
      queryStatistics(db, t.accountId, query).then(
        () => null,
        (e: { errors?: { field: string }[] }) => e.errors?.map((x) => x.field),
      );
    expect(await refusal({ from: "2026-02-30" })).toEqual(["from"]);
    expect(await refusal({ from: "2026-03-10", to: "2026-03-09" })).toEqual(["from"]);
    expect(await refusal({ from: "2025-01-01", to: "2026-01-03" })).toEqual(["to"]);
    expect(await refusal({ from: "2025-01-01", to: "2026-01-02" })).toBeNull(); // 366 days apart
    expect(await refusal({ groupBy: "year" })).toEqual(["groupBy"]);
    expect(await refusal({ by: ["shop"] })).toEqual(["by"]);
    expect(await refusal({ courier: ["dhl"] })).toEqual(["courier"]);
    expect(await refusal({ courierProfile: ["x"] })).toEqual(["courierProfile"]);
  });

  it("defaults to the last 30 days of the account's calendar", async () => {
    const t = await newTarget("Pacific/Kiritimati"); // UTC+14: already tomorrow for most of the world
    const db = await getDb();
    const now = new Date("2026-11-26T12:00:00Z");
    const answer = await queryStatistics(db, t.accountId, {}, now);
    expect(answer).toMatchObject({ from: "2026-10-29", to: "2026-11-27", groupBy: "day" });
    expect(addDays(answer.to, -29)).toBe(answer.from);
  });

  it("staff: counts each account's own last days, today included, in its time zone", async () => {
    // 23:30 UTC on 20 March 2026: already the 21st in Prague (UTC+1), still the 20th in New York (UTC-4).
    const now = at("2026-03-20T23:30:00Z");
    const prague = await newTarget("Europe/Prague");
    const newYork = await newTarget("America/New_York");
    await writeHistory(prague, [
      { kind: "refused", at: at("2026-03-20T23:10:00Z"), pair: SHOP_CZ, profile: 0 }, // Prague's today, the 21st
      { kind: "refused", at: at("2026-03-14T22:30:00Z"), pair: SHOP_CZ, profile: 0 }, // the 14th: 8 days back there
    ]);
    await writeHistory(newYork, [
      { kind: "refused", at: at("2026-03-14T03:00:00Z"), pair: SHOP_CZ, profile: 0 }, // the 13th in New York
      { kind: "refused", at: at("2026-03-14T05:00:00Z"), pair: SHOP_CZ, profile: 0 }, // the 14th: 7 days back
    ]);
    const db = await getDb();
    const staff = { userId: prague.actor.userId, isStaff: true };
    const answer = await statisticsByAccount(db, staff, { days: 7 }, now);
    expect(answer.days).toBe(7);
    const of = (t: Target) => answer.accounts.find((a) => a.accountId === t.accountId);
    expect(of(prague)).toMatchObject({ from: "2026-03-15", to: "2026-03-21", timeZone: "Europe/Prague" });
    expect(of(prague)!.figures.refused).toBe(1);
    expect(of(newYork)).toMatchObject({ from: "2026-03-14", to: "2026-03-20", timeZone: "America/New_York" });
    expect(of(newYork)!.figures.refused).toBe(1);
    // An account with nothing in its own window is left out.
    const day = await statisticsByAccount(db, staff, { days: 1 }, now);
    expect(day.accounts.find((a) => a.accountId === newYork.accountId)).toBeUndefined();
    expect(day.accounts.find((a) => a.accountId === prague.accountId)!.figures.refused).toBe(1);
    await expect(statisticsByAccount(db, prague.actor, { days: 7 }, now)).rejects.toMatchObject({ code: "forbidden" });
    await expect(statisticsByAccount(db, staff, { days: 0 }, now)).rejects.toThrow(/days/);
  });

  it("agrees with a count of the records for random histories, zones and questions (fast-check)", async () => {
    const db = await getDb();
    const DAY0 = Date.parse("2026-03-20T00:00:00Z"); // a window over Europe's switch to summer time (29 March)
    const instant = fc.integer({ min: 0, max: 20 * 24 * 60 }).map((m) => new Date(DAY0 + m * 60_000));
    const pair = fc.constantFrom<Pair>(["shop", "cz"], ["shop", "sk"], ["erp", "main"]);
    const profile = fc.integer({ min: 0, max: 1 });
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("order" as const),
        at: instant,
        pair,
        profile,
        cod: fc.option(
          fc.record({
            amount: fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100),
            currency: fc.constantFrom("CZK", "EUR"),
          }),
          { nil: undefined },
        ),
        replace: fc.boolean(),
        courier: fc.constantFrom("sandbox", "packeta"),
      }),
      fc.record({ kind: fc.constant("delete" as const), at: instant, pick: fc.nat() }),
      fc.record({
        kind: fc.constant("tracking" as const),
        at: instant,
        pick: fc.nat(),
        status: fc.constantFrom("DELIVERED" as const, "RETURNED" as const, "IN_TRANSIT" as const),
      }),
      fc.record({ kind: fc.constant("refused" as const), at: instant, pair, profile }),
      fc.record({
        kind: fc.constant("validation" as const),
        at: instant,
        pair,
        profile: fc.option(profile, { nil: null }),
        status: fc.constantFrom("OK" as const, "WARNING" as const, "ERROR" as const),
      }),
    );
    const day = fc.integer({ min: -2, max: 22 }).map((d) => new Date(DAY0 + d * 86_400_000).toISOString().slice(0, 10));
    const ask = fc.record({
      from: day,
      length: fc.integer({ min: 0, max: 25 }),
      groupBy: fc.constantFrom("day" as const, "week" as const, "month" as const),
      by: fc.subarray(["sourcePair", "courier", "courierProfile"] as const, { minLength: 1 }),
      referenceSource: fc.option(fc.constantFrom("shop", "erp"), { nil: undefined }),
      courierProfile: fc.option(profile, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 40 }),
        fc.constantFrom("Europe/Prague", "America/New_York", "Asia/Kathmandu", "UTC"),
        fc.array(ask, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 40 }),
        async (steps, timeZone, asks, compactAfter) => {
          // Turn the random steps into a consistent history: deletes and tracking pick a live order (or are dropped).
          const history: HistoryRecord[] = [];
          const live: number[] = [];
          const stored: number[] = [];
          for (const s of steps) {
            if (s.kind === "order") {
              const samePair = live.filter((i) => {
                const o = history[i] as Extract<HistoryRecord, { kind: "order" }>;
                return o.pair === s.pair && o.at <= s.at;
              });
              const replaces = s.replace && samePair.length > 0 ? samePair[0] : undefined;
              if (replaces !== undefined) live.splice(live.indexOf(replaces), 1);
              live.push(history.length);
              stored.push(history.length);
              history.push({
                kind: "order",
                at: s.at,
                pair: s.pair,
                profile: s.profile,
                courier: s.courier,
                cod: s.cod,
                replaces,
              });
            } else if (s.kind === "delete") {
              if (live.length === 0) continue;
              const order = live.splice(s.pick % live.length, 1)[0]!;
              history.push({ kind: "delete", at: s.at, order });
            } else if (s.kind === "tracking") {
              if (stored.length === 0) continue;
              history.push({ kind: "tracking", at: s.at, order: stored[s.pick % stored.length]!, status: s.status });
            } else {
              history.push(s);
            }
          }
          const t = await newTarget(timeZone);
          // Part of the history compacted into the daily rows, the rest still deltas.
          const ids = await writeHistory(t, history, { to: compactAfter });
          await compactStatistics(db);
          await writeHistory(t, history, { from: compactAfter, ids });
          for (const a of asks) {
            const question: Ask = {
              from: a.from,
              to: addDays(a.from, a.length),
              groupBy: a.groupBy,
              by: [...a.by],
              ...(a.referenceSource ? { referenceSource: a.referenceSource } : {}),
              ...(a.courierProfile !== undefined ? { courierProfile: a.courierProfile } : {}),
            };
            const answer = await queryStatistics(db, t.accountId, {
              ...question,
              courierProfile:
                question.courierProfile === undefined ? undefined : [t.profileIds[question.courierProfile]!],
            });
            expect(sorted(answer.items)).toEqual(expectedItems(t, timeZone, history, question));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
