import { describe, expect, it } from "vitest";
import { getDb, queryRows, uuidArray } from "@/db/client";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { compactStatistics } from "@/server/services/statistics/maintain-statistics";
import { createTestUser } from "@/test/helpers";
import { writeHistory, type HistoryRecord } from "@/test/statistics-history";
import { describeDisagreement, STATISTICS_DISAGREEMENTS, type StatisticsDisagreement } from "./statistics-check";

const at = (iso: string) => new Date(iso);
const cod = { amount: 499, currency: "CZK" };
/** One reference created three times (each replacing the last), a deleted order, tracking, a refusal, a validation. */
const history: HistoryRecord[] = [
  { kind: "order", at: at("2026-06-01T08:00:00Z"), pair: ["shop", "cz"], profile: 0, cod },
  { kind: "order", at: at("2026-06-01T09:00:00Z"), pair: ["shop", "cz"], profile: 0, cod, replaces: 0 },
  { kind: "order", at: at("2026-06-02T09:00:00Z"), pair: ["shop", "cz"], profile: 0, cod, replaces: 1 },
  {
    kind: "order",
    at: at("2026-06-02T10:00:00Z"),
    pair: ["shop", "sk"],
    profile: 0,
    cod: { amount: 5, currency: "EUR" },
  },
  { kind: "delete", at: at("2026-06-03T10:00:00Z"), order: 3 },
  { kind: "tracking", at: at("2026-06-04T10:00:00Z"), order: 2, status: "DELIVERED" },
  { kind: "refused", at: at("2026-06-02T11:00:00Z"), pair: ["shop", "cz"], profile: 0 },
  { kind: "validation", at: at("2026-06-02T11:00:00Z"), pair: ["shop", "cz"], profile: null, status: "OK" },
];

describe("the invariant suite's statistics check", () => {
  it("finds the kept figures equal to the recount, and names a key where they differ", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const actor = { userId: user.userId, isStaff: false };
    const profile = await createCourierProfile(db, actor, { accountId: user.accountId, courier: "sandbox", name: "A" });
    const ids = await writeHistory({ accountId: user.accountId, profileIds: [profile.id] }, history, { to: 4 });
    await compactStatistics(db);
    await writeHistory({ accountId: user.accountId, profileIds: [profile.id] }, history, { from: 4, ids });
    const disagreements = () =>
      queryRows<StatisticsDisagreement>(db, STATISTICS_DISAGREEMENTS, [uuidArray([user.accountId])]);
    expect(await disagreements()).toEqual([]);

    // What a removal that kept its order's COD would have left: the replaced order's 499 CZK still counted.
    await queryRows(
      db,
      `insert into statistics_deltas (account_id, day, reference_source, source_identifier, courier, courier_profile_id, currency, cod)
       values ($1::uuid, '2026-06-01', 'shop', 'cz', 'sandbox', $2::uuid, 'CZK', 499)`,
      [user.accountId, profile.id],
    );
    const found = await disagreements();
    expect(found.map(describeDisagreement)).toEqual([
      `account ${user.accountId} 2026-06-01 shop/cz sandbox CZK: cod kept 499.00, counted 0`,
    ]);
  });
});
