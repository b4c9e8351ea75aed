import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ZodError } from "zod";
import { getDb, rowsOf } from "@/db/client";
import { foldedRecipientName, shippingOrders } from "@/db/schema";
import { readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";
import { callerFor, failure } from "@/test/trpc";
import * as create from "../couriers/[courier_id]/shipping-orders/route";
import * as list from "./route";

type Envelope = { itemsCount: number; items: { referenceNumber: string; recipient: { name: string } }[] };
type Problem = { errors: { field: string; message: string }[] };

const recipient = (Name: string) => ({ ...(order().Recipient as Record<string, unknown>), Name });

describe("GET /shipping-orders?recipient= (an extension of the contract)", () => {
  let partner: Partner;
  let stranger: Partner;
  const get = (who: Partner, query: string) => as(who)(list.GET, `/api/v2/shipping-orders${query}`);
  const refs = async (query: string, who = partner) =>
    (await readJson<Envelope>(await get(who, query))).items.map((o) => o.referenceNumber);

  beforeAll(async () => {
    partner = await createPartner();
    stranger = await createPartner();
    const names: [Partner, string, string][] = [
      [partner, "R-1", "Jan Novák"],
      [partner, "R-2", "JANA NOVÁKOVÁ"],
      [partner, "R-3", "Petr Svoboda"],
      [partner, "R-4", "Zbigniew Łukasz"],
      [partner, "R-5", "100% Novak_s.r.o."],
      [stranger, "R-9", "Jan Novák"],
    ];
    for (const [who, ReferenceNumber, Name] of names) {
      const response = await as(who)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body: order({ ReferenceNumber, Recipient: recipient(Name) }),
        params: { courier_id: "sandbox" },
      });
      expect(response.status).toBe(200);
    }
    const db = await getDb();
    await db
      .update(shippingOrders)
      .set({ status: "DELIVERED", trackingNextAt: null })
      .where(eq(shippingOrders.referenceNumber, "R-2"));
  });

  it('finds "Novák" by "novak": a substring, case and accents ignored, newest first', async () => {
    expect(await refs("?recipient=novak")).toEqual(["R-5", "R-2", "R-1"]);
    expect(await refs(`?recipient=${encodeURIComponent("NOVÁKová")}`)).toEqual(["R-2"]);
    expect(await refs(`?recipient=${encodeURIComponent("  ovák  ")}`)).toEqual(["R-5", "R-2", "R-1"]);
    expect(await refs("?recipient=lukasz")).toEqual(["R-4"]);
    expect(await refs("?recipient=svobodova")).toEqual([]);
  });

  it("takes % and _ as themselves, not as wildcards", async () => {
    expect(await refs(`?recipient=${encodeURIComponent("0% n")}`)).toEqual(["R-5"]);
    expect(await refs(`?recipient=${encodeURIComponent("k_s")}`)).toEqual(["R-5"]);
    expect(await refs(`?recipient=${encodeURIComponent("n%k")}`)).toEqual([]);
    expect(await refs(`?recipient=${encodeURIComponent("n_v")}`)).toEqual([]);
  });

  it("combines with the status filter (AND) and counts what matches", async () => {
    expect(await refs("?recipient=novak&status=DELIVERED")).toEqual(["R-2"]);
    expect(await refs("?recipient=novak&status=CREATED")).toEqual(["R-5", "R-1"]);
    expect(await refs("?recipient=svoboda&status=DELIVERED")).toEqual([]);
    const page = await readJson<Envelope>(await get(partner, "?recipient=novak&pageSize=1"));
    expect(page).toMatchObject({ itemsCount: 3, items: [{ referenceNumber: "R-5" }] });
  });

  it.each([
    ["too short", "no"],
    ["short once trimmed", "  no  "],
    ["empty", ""],
    ["too long", "x".repeat(101)],
  ])("refuses a search %s with 400 naming recipient", async (_, text) => {
    const response = await get(partner, `?recipient=${encodeURIComponent(text)}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((await readJson<Problem>(response)).errors.map((e) => e.field)).toEqual(["recipient"]);
  });

  it("takes 3 and 100 characters", async () => {
    expect((await get(partner, "?recipient=nov")).status).toBe(200);
    expect((await get(partner, `?recipient=${"x".repeat(100)}`)).status).toBe(200);
  });

  it("never finds another account's orders", async () => {
    expect(await refs("?recipient=novak", stranger)).toEqual(["R-9"]);
    expect(await refs("?recipient=svoboda", stranger)).toEqual([]);
    expect(await refs("?recipient=novak")).not.toContain("R-9");
  });

  it("is the same filter through tRPC, refused the same way", async () => {
    const api = await callerFor(partner);
    const found = await api.shippingOrders.list({
      accountId: partner.accountId,
      recipient: "NOVAK",
      status: ["CREATED"],
    });
    expect(found.items.map((o) => o.referenceNumber)).toEqual(["R-5", "R-1"]);
    const error = await failure(api.shippingOrders.list({ accountId: partner.accountId, recipient: "no" }));
    expect(error.code).toBe("BAD_REQUEST");
    expect((error.cause as ZodError).issues.map((issue) => issue.path[0])).toEqual(["recipient"]);
  });

  it("matches on the very expression its trigram index is built on", async () => {
    const db = await getDb();
    const [index] = rowsOf<{ indexdef: string }>(
      await db.execute(sql`select indexdef from pg_indexes where indexname = 'shipping_orders_recipient_search_idx'`),
    );
    const indexed = /USING gin \((.+) gin_trgm_ops\) WHERE \(deleted_at IS NULL\)$/.exec(index?.indexdef ?? "")?.[1];
    expect(indexed).toContain("recipient_name");
    // Too few rows here for the planner to pick this index over the btrees: what is asked is that it could, i.e.
    // that the condition, as PostgreSQL reads it, is `<the index's expression> LIKE …`.
    const plan = rowsOf<Record<string, string>>(
      await db.execute(
        sql`explain select 1 from ${shippingOrders} where ${shippingOrders.deletedAt} is null
          and ${foldedRecipientName(shippingOrders.recipientName)} like ('%' || ${foldedRecipientName(sql`${"Novák"}::text`)} || '%')`,
      ),
    )
      .map((row) => Object.values(row)[0])
      .join("\n");
    expect(plan).toContain(`${indexed} ~~ '%novak%'::text`);
  });
});
