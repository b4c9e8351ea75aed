import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { accounts } from "@/db/schema";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { updateAccountSettings } from "@/server/services/accounts/account-settings";
import { queryStatistics } from "@/server/services/statistics/query-statistics";
import { createTestUser, pollUntil } from "@/test/helpers";
import { expectedItems, writeHistory, type HistoryRecord } from "@/test/statistics-history";
import { QUEUES } from "@/server/queue/queues";
import { startWorker, workerOptionsFromEnv, type RunningWorker } from "./worker";

let worker: RunningWorker;
beforeAll(async () => {
  worker = await startWorker(await getDb(), { ...workerOptionsFromEnv(), pollingSeconds: 0.5, maintenanceSeconds: 1 });
});
afterAll(async () => {
  await worker?.stop();
});

const history: HistoryRecord[] = [
  { kind: "order", at: new Date("2026-06-01T22:30:00Z"), pair: ["shop", "cz"], profile: 0 },
  {
    kind: "order",
    at: new Date("2026-06-02T03:30:00Z"),
    pair: ["shop", "sk"],
    profile: 0,
    cod: { amount: 12.5, currency: "EUR" },
  },
  { kind: "refused", at: new Date("2026-06-02T23:30:00Z"), pair: ["shop", "cz"], profile: 0 },
  { kind: "validation", at: new Date("2026-06-01T23:59:00Z"), pair: ["shop", "cz"], profile: null, status: "ERROR" },
];

describe("statistics jobs in the worker", () => {
  it("recounts an account after its time zone changes, and folds the deltas in", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const actor = { userId: user.userId, isStaff: false };
    const profile = await createCourierProfile(db, actor, { accountId: user.accountId, courier: "sandbox", name: "A" });
    const target = { accountId: user.accountId, profileIds: [profile.id] };
    await writeHistory(target, history);
    const ask = { from: "2026-05-30", to: "2026-06-05", groupBy: "day" as const, by: ["sourcePair" as const] };
    expect((await queryStatistics(db, user.accountId, ask)).items).toEqual(
      expectedItems(target, "Europe/Prague", history, ask),
    );

    await updateAccountSettings(db, actor, user.accountId, { timeZone: "America/Los_Angeles" });
    const settled = await pollUntil(
      () => db.select().from(accounts).where(eq(accounts.id, user.accountId)),
      ([a]) => a!.statisticsRebuildSince === null,
    );
    expect(settled[0]!.statisticsRebuildSince).toBeNull();
    expect((await queryStatistics(db, user.accountId, ask)).items).toEqual(
      expectedItems(target, "America/Los_Angeles", history, ask),
    );

    // The rebuild left the account's figures compacted; new records append deltas, which the compaction job folds in.
    await writeHistory(target, [...history, ...history], { from: history.length });
    const deltas = async () =>
      rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from statistics_deltas where account_id = ${user.accountId}`),
      )[0]!.n;
    expect(await deltas()).toBeGreaterThan(0);
    await worker.boss.send(QUEUES.statisticsCompact, {});
    expect(await pollUntil(deltas, (n) => n === 0)).toBe(0);
    const doubled = expectedItems(target, "America/Los_Angeles", [...history, ...history], ask);
    expect((await queryStatistics(db, user.accountId, ask)).items).toEqual(doubled);
  });
});
