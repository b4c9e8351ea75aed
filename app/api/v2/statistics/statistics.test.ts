import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import * as account from "@/app/api/v2/private/accounts/[accountId]/route";
import * as accountList from "@/app/api/v2/private/accounts/route";
import * as order from "@/app/api/v2/shipping-orders/[id]/route";
import { getDb } from "@/db/client";
import { compactStatistics, rebuildStatistics } from "@/server/services/statistics/maintain-statistics";
import { dayIn, statisticsByAccount } from "@/server/services/statistics/query-statistics";
import { call, createTestUser, readJson } from "@/test/helpers";
import { activatePair, as, createPartner, order as anOrder } from "@/test/partner";
import * as statistics from "./route";

type Item = {
  period: string;
  referenceSource: string | null;
  sourceIdentifier: string | null;
  courier: string | null;
  courierProfile: string | null;
  created: number;
  replaced: number;
  cancelled: number;
  refused: number;
  delivered: number;
  returned: number;
  validations: { ok: number; warning: number; error: number };
  cod: { currency: string; amount: number }[];
};
type Answer = { from: string; to: string; groupBy: string; timeZone: string; items: Item[] };

const PATH = "/api/v2/couriers/sandbox/shipping-orders";

describe("GET /api/v2/statistics", () => {
  it("counts what the API did today, per source pair, as JSON and as CSV", async () => {
    const p = await createPartner();
    await activatePair(p, "shoptet", "eshop-1");
    await activatePair(p, "shoptet", "eshop-2");
    const api = as(p);
    const post = (body: unknown, path = PATH) => api(create.POST, path, { body, params: { courier_id: "sandbox" } });
    const shop1 = { ReferenceSource: "shoptet", SourceIdentifier: "eshop-1" };
    const shop2 = { ReferenceSource: "shoptet", SourceIdentifier: "eshop-2" };

    // eshop-1: two orders (one with COD), one replaced by a third, a refusal; eshop-2: one order, deleted.
    expect(
      (
        await post([
          anOrder({ ...shop1, ReferenceNumber: "A-1", CodPrice: 250, CodCurrency: "CZK" }),
          anOrder({ ...shop1, ReferenceNumber: "A-2" }),
        ])
      ).ok,
    ).toBe(true);
    expect((await post(anOrder({ ...shop1, ReferenceNumber: "A-1", CodPrice: 300, CodCurrency: "CZK" }))).ok).toBe(
      true,
    );
    const refused = await readJson<{ failed: unknown[] }>(
      await post(anOrder({ ...shop1, ReferenceNumber: "COURIER-FAIL-1" })),
    );
    expect(refused.failed).toHaveLength(1);
    const created = await readJson<{ items: { id: string }[] }>(
      await post(anOrder({ ...shop2, ReferenceNumber: "B-1", CodPrice: 10, CodCurrency: "EUR" })),
    );
    const b1 = created.items[0]!;
    const deleted = await api(order.DELETE, `/api/v2/shipping-orders/${b1.id}`, {
      method: "DELETE",
      params: { id: b1.id },
    });
    expect(deleted.status).toBe(204);
    // A validate call with an error (no parcels) under eshop-2.
    await api(validate.POST, `${PATH}/validate`, {
      body: anOrder({ ...shop2, Parcels: [] }),
      params: { courier_id: "sandbox" },
    });

    const today = dayIn("Europe/Prague", new Date());
    const response = await api(statistics.GET, "/api/v2/statistics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const answer = await readJson<Answer>(response);
    expect(answer).toMatchObject({ to: today, groupBy: "day", timeZone: "Europe/Prague" });
    expect(answer.items).toEqual([
      {
        period: today,
        referenceSource: "shoptet",
        sourceIdentifier: "eshop-1",
        courier: null,
        courierProfile: null,
        created: 3,
        replaced: 1,
        cancelled: 1,
        refused: 1,
        delivered: 0,
        returned: 0,
        // Each order of each create is validated: 4 orders, the refused one included.
        validations: { ok: 4, warning: 0, error: 0 },
        // The replacement's 300 CZK: its predecessor's 250 no longer counts.
        cod: [{ currency: "CZK", amount: 300 }],
      },
      {
        period: today,
        referenceSource: "shoptet",
        sourceIdentifier: "eshop-2",
        courier: null,
        courierProfile: null,
        created: 1,
        replaced: 0,
        cancelled: 1,
        refused: 0,
        delivered: 0,
        returned: 0,
        validations: { ok: 1, warning: 0, error: 1 },
        // B-1 was deleted: its COD no longer counts.
        cod: [],
      },
    ]);

    // By courier and profile, one pair only, as CSV (comma list and repeated keys alike).
    const csv = await api(
      statistics.GET,
      `/api/v2/statistics?by=courier,courierProfile&referenceSource=shoptet&sourceIdentifier=eshop-1&from=${today}&to=${today}`,
      { headers: { accept: "text/csv, application/json;q=0.5" } },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      {
        period: today,
        referenceSource: "",
        sourceIdentifier: "",
        courier: "sandbox",
        courierProfile: p.profileId,
        created: "3",
        replaced: "1",
        cancelled: "1",
        refused: "1",
        delivered: "0",
        returned: "0",
        validationsOk: "4",
        validationsWarning: "0",
        validationsError: "0",
        codCZK: "300.00",
      },
    ]);
    // JSON stays the answer when JSON is preferred or CSV not asked for.
    const json = await api(statistics.GET, "/api/v2/statistics?by=courier", {
      headers: { accept: "application/json, text/csv;q=0.1" },
    });
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    const byCourier = await readJson<Answer>(json);
    expect(byCourier.items).toMatchObject([{ courier: "sandbox", referenceSource: null, created: 4, cancelled: 2 }]);
  });

  it("sums the COD of the live order only when one reference is created three times", async () => {
    const p = await createPartner();
    const api = as(p);
    for (let n = 0; n < 3; n++) {
      const created = await readJson<{ items: { replaced: string | null }[] }>(
        await api(create.POST, PATH, {
          body: anOrder({ ReferenceNumber: "COD-1", CodPrice: 499, CodCurrency: "CZK" }),
          params: { courier_id: "sandbox" },
        }),
      );
      expect(created.items[0]!.replaced === null).toBe(n === 0);
    }
    const today = dayIn("Europe/Prague", new Date());
    const live = [{ currency: "CZK", amount: 499 }];
    const figures = async () => (await readJson<Answer>(await api(statistics.GET, "/api/v2/statistics"))).items;
    expect(await figures()).toMatchObject([{ period: today, created: 3, replaced: 2, cancelled: 2, cod: live }]);
    const csv = await api(statistics.GET, "/api/v2/statistics", { headers: { accept: "text/csv" } });
    expect(parse(await csv.text(), { columns: true })).toMatchObject([{ created: "3", codCZK: "499.00" }]);

    // The same once the worker folds the deltas in, and from the recount of the records.
    const db = await getDb();
    await compactStatistics(db);
    expect(await figures()).toMatchObject([{ created: 3, cod: live }]);
    await rebuildStatistics(db, p.accountId);
    expect(await figures()).toMatchObject([{ created: 3, replaced: 2, cancelled: 2, cod: live }]);
    const staff = await createTestUser({ staff: true });
    const everyAccount = await statisticsByAccount(db, { userId: staff.userId, isStaff: true }, { days: 1 });
    expect(everyAccount.accounts.find((a) => a.accountId === p.accountId)?.figures.cod).toEqual(live);
  });

  it("answers 400 naming the parameter, 403 without statistics:read, 401 without a key", async () => {
    const p = await createPartner();
    const api = as(p);
    const problem = async (query: string) => {
      const r = await api(statistics.GET, `/api/v2/statistics?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      return (await readJson<{ errors: { field: string }[] }>(r)).errors.map((e) => e.field);
    };
    expect(await problem("from=2026-13-01")).toEqual(["from"]);
    expect(await problem("from=2026-03-10&to=2026-03-01")).toEqual(["from"]);
    expect(await problem("from=2024-01-01&to=2026-01-01")).toEqual(["to"]);
    expect(await problem("groupBy=quarter")).toEqual(["groupBy"]);
    expect(await problem("by=sourcePair,shop")).toEqual(["by"]);
    expect(await problem("courier=dhl")).toEqual(["courier"]);
    expect(await problem("courierProfile=nope")).toEqual(["courierProfile"]);
    expect(await problem("from=2026-01-01&from=2026-01-02")).toEqual(["from"]);
    expect(await problem("page=2")).toEqual(["page"]);

    const limited = await createPartner({ permissions: ["shipping-orders:read"] });
    expect((await as(limited)(statistics.GET, "/api/v2/statistics")).status).toBe(403);
    expect((await call(statistics.GET, "/api/v2/statistics")).status).toBe(401);
  });
});

describe("/api/v2/private/accounts/{accountId}", () => {
  it("shows and changes the name and time zone: owners and staff, IANA names only", async () => {
    const owner = await createTestUser();
    const member = await createTestUser({ accountId: owner.accountId, role: "member" });
    const stranger = await createTestUser();
    const staff = await createTestUser({ staff: true });
    const path = `/api/v2/private/accounts/${owner.accountId}`;
    const params = { accountId: owner.accountId };
    const get = (token: string) => call(account.GET, path, { token, params });
    const patch = (token: string, body: unknown) => call(account.PATCH, path, { method: "PATCH", token, params, body });

    const mine = await call(accountList.GET, "/api/v2/private/accounts", { token: member.token });
    expect(await readJson(mine)).toEqual({
      items: [{ id: owner.accountId, name: expect.any(String), timeZone: "Europe/Prague", role: "member" }],
    });
    const shown = await get(member.token);
    expect(shown.status).toBe(200);
    expect(await readJson(shown)).toEqual({ id: owner.accountId, name: expect.any(String), timeZone: "Europe/Prague" });

    const changed = await patch(owner.token, { timeZone: "America/New_York", name: "  Acme  " });
    expect(changed.status).toBe(200);
    expect(await readJson(changed)).toEqual({ id: owner.accountId, name: "Acme", timeZone: "America/New_York" });
    expect(await readJson(await get(owner.token))).toMatchObject({ timeZone: "America/New_York" });

    const invalid = await patch(owner.token, { timeZone: "Mars/Olympus" });
    expect(invalid.status).toBe(400);
    expect((await readJson<{ errors: { field: string }[] }>(invalid)).errors).toEqual([
      { field: "timeZone", message: expect.stringContaining("IANA") },
    ]);
    expect((await patch(owner.token, {})).status).toBe(400);
    expect((await patch(owner.token, { timeZone: "UTC", color: "red" })).status).toBe(400);
    expect((await patch(member.token, { timeZone: "UTC" })).status).toBe(403);
    expect((await patch(stranger.token, { timeZone: "UTC" })).status).toBe(404);
    expect((await get(stranger.token)).status).toBe(404);
    expect(
      (await call(account.GET, "/api/v2/private/accounts/nope", { token: owner.token, params: { accountId: "nope" } }))
        .status,
    ).toBe(404);
    const byStaff = await patch(staff.token, { timeZone: "Asia/Tokyo" });
    expect(byStaff.status).toBe(200);
    expect(await readJson(await get(owner.token))).toMatchObject({ name: "Acme", timeZone: "Asia/Tokyo" });
  });
});
