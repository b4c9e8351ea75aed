import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { shippingOrders } from "@/db/schema";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { readJson } from "@/test/helpers";
import { activatePair, as, createPartner, order, type Partner } from "@/test/partner";
import * as create from "../couriers/[courier_id]/shipping-orders/route";
import * as list from "./route";

type Order = {
  id: string;
  referenceNumber: string;
  shippingNumber: string[];
  status: string;
  courierProfile: string;
  created: string;
};
type Envelope = {
  page: number;
  pageSize: number;
  totalPages: number;
  nextPage: boolean;
  previousPage: boolean;
  itemsCount: number;
  items: Order[];
};

describe("GET /shipping-orders", () => {
  let partner: Partner;
  let orders: Order[];
  let secondProfile: string;
  const get = (query: string) => as(partner)(list.GET, `/api/v2/shipping-orders${query}`);
  const refs = async (query: string) =>
    (await readJson<Envelope>(await get(query))).items.map((o) => o.referenceNumber);

  beforeAll(async () => {
    partner = await createPartner();
    await activatePair(partner, "shop", "eu");
    await activatePair(partner, "market", "eu");
    secondProfile = (
      await createCourierProfile(
        await getDb(),
        { userId: partner.userId, isStaff: false },
        { accountId: partner.accountId, courier: "sandbox", name: "Express", service: "EXPRESS" },
      )
    ).id;
    orders = [];
    for (let i = 1; i <= 5; i++) {
      const query = i === 5 ? `?profile=${secondProfile}` : "";
      const body = order({
        ReferenceNumber: `L-${i}`,
        ...(i === 4 ? { ReferenceSource: "shop", SourceIdentifier: "eu" } : {}),
        ...(i === 2 ? { ReferenceSource: "market", SourceIdentifier: "eu" } : {}),
      });
      const response = await as(partner)(create.POST, `/api/v2/couriers/sandbox/shipping-orders${query}`, {
        body,
        params: { courier_id: "sandbox" },
      });
      orders.push((await readJson<{ items: Order[] }>(response)).items[0]!);
    }
    // Spread creation times over five days so date bounds can be asserted exactly.
    const db = await getDb();
    for (const [i, o] of orders.entries()) {
      await db
        .update(shippingOrders)
        .set({ createdAt: new Date(Date.UTC(2026, 0, 10 + i, 12, 0, 0, 500)) })
        .where(eq(shippingOrders.id, o.id));
    }
    await db
      .update(shippingOrders)
      .set({ status: "DELIVERED", trackingNextAt: null })
      .where(eq(shippingOrders.id, orders[1]!.id));
  });

  it("lists newest first in the envelope", async () => {
    const page = await readJson<Envelope>(await get(""));
    expect(page).toMatchObject({
      page: 1,
      pageSize: 20,
      totalPages: 1,
      nextPage: false,
      previousPage: false,
      itemsCount: 5,
    });
    expect(page.items.map((o) => o.referenceNumber)).toEqual(["L-5", "L-4", "L-3", "L-2", "L-1"]);
    expect(page.items[0]!.created).toBe("2026-01-14T12:00:00");
  });

  it("pages: size, next and previous, a page past the end is empty", async () => {
    const p2 = await readJson<Envelope>(await get("?pageSize=2&page=2"));
    expect(p2).toMatchObject({
      page: 2,
      pageSize: 2,
      totalPages: 3,
      nextPage: true,
      previousPage: true,
      itemsCount: 5,
    });
    expect(p2.items.map((o) => o.referenceNumber)).toEqual(["L-3", "L-2"]);
    const p3 = await readJson<Envelope>(await get("?pageSize=2&page=3"));
    expect(p3).toMatchObject({ nextPage: false, previousPage: true });
    expect(p3.items).toHaveLength(1);
    const past = await readJson<Envelope>(await get("?pageSize=2&page=9"));
    expect(past.items).toEqual([]);
    expect(past).toMatchObject({ nextPage: false, previousPage: true });
  });

  it("filters by referenceSource and sourceIdentifier, exactly, each usable alone", async () => {
    expect(await refs("?referenceSource=shop")).toEqual(["L-4"]);
    expect(await refs("?sourceIdentifier=eu")).toEqual(["L-4", "L-2"]);
    expect(await refs("?referenceSource=market&sourceIdentifier=eu")).toEqual(["L-2"]);
    expect(await refs("?referenceSource=api")).toEqual(["L-5", "L-3", "L-1"]);
    expect(await refs("?sourceIdentifier=default")).toEqual(["L-5", "L-3", "L-1"]);
    expect(await refs("?referenceSource=Shop")).toEqual([]);
    expect(await refs("?referenceSource=shop&sourceIdentifier=default")).toEqual([]);
    const twice = await get("?referenceSource=shop&referenceSource=api");
    expect(twice.status).toBe(400);
    expect(await readJson(twice)).toMatchObject({ errors: [{ field: "referenceSource" }] });
  });

  it("filters by inclusive date bounds at second precision", async () => {
    expect(await refs("?createdFrom=2026-01-11T12:00:00&createdTo=2026-01-13T12:00:00")).toEqual(["L-4", "L-3", "L-2"]);
    expect(await refs("?createdFrom=2026-01-11T12:00:01")).toEqual(["L-5", "L-4", "L-3"]);
    expect(await refs("?createdTo=2026-01-11T11:59:59")).toEqual(["L-1"]);
    expect(await refs("?createdFrom=2026-01-12&createdTo=2026-01-12")).toEqual(["L-3"]);
  });

  it("filters by reference numbers, ids, shipping numbers, status, courier and profile, in repeated and comma forms", async () => {
    expect(await refs("?referenceNumbers=L-1&referenceNumbers=L-3")).toEqual(["L-3", "L-1"]);
    expect(await refs("?referenceNumbers=L-1,L-3")).toEqual(["L-3", "L-1"]);
    expect(await refs(`?ids=${orders[0]!.id},${orders[4]!.id}`)).toEqual(["L-5", "L-1"]);
    expect(await refs(`?ids=${orders[0]!.id}&ids=${orders[1]!.id}`)).toEqual(["L-2", "L-1"]);
    expect(await refs(`?shippingNumbers=${orders[2]!.shippingNumber[0]}`)).toEqual(["L-3"]);
    expect(await refs("?status=DELIVERED")).toEqual(["L-2"]);
    expect(await refs("?status=CREATED,DELIVERED")).toHaveLength(5);
    expect(await refs("?courier=sandbox")).toHaveLength(5);
    expect(await refs(`?courierProfile=${secondProfile}`)).toEqual(["L-5"]);
    expect(await refs("?referenceNumbers=L-1,L-2&status=DELIVERED")).toEqual(["L-2"]);
    expect(await refs("?referenceNumbers=nothing")).toEqual([]);
  });

  it.each([
    ["ids", "?ids=not-a-uuid"],
    ["courierProfile", "?courierProfile=123"],
    ["status", "?status=LOST"],
    ["courier", "?courier=acme"],
    ["createdFrom", "?createdFrom=yesterday"],
    ["createdTo", "?createdTo=2026-13-45T99:00:00"],
    ["createdFrom", "?createdFrom=2026-02-30T00:00:00"],
    ["createdTo", "?createdTo=2026-01-01T24:00:00"],
    ["page", "?page=0"],
    ["pageSize", "?pageSize=51"],
    ["pageSize", "?pageSize=x"],
  ])("answers 400 naming %s for %s", async (field, query) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = await readJson<{ errors: { field: string }[] }>(response);
    expect(problem.errors.map((e) => e.field)).toContain(field);
  });

  it("shows only the key's own account", async () => {
    const other = await createPartner();
    const page = await readJson<Envelope>(await as(other)(list.GET, "/api/v2/shipping-orders"));
    expect(page).toMatchObject({ itemsCount: 0, totalPages: 0, items: [] });
    const byId = await readJson<Envelope>(await as(other)(list.GET, `/api/v2/shipping-orders?ids=${orders[0]!.id}`));
    expect(byId.items).toEqual([]);
  });
});
