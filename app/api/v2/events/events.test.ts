import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as orderItem from "@/app/api/v2/shipping-orders/[id]/route";
import { getDb } from "@/db/client";
import { parcels } from "@/db/schema";
import { sandboxCourier } from "@/server/couriers/sandbox";
import { persistOrders } from "@/server/services/shipping-orders/persist-orders";
import { advanceDueTracking } from "@/server/services/shipping-orders/advance-tracking";
import { readJson } from "@/test/helpers";
import { activatePair, as, createPartner, order, type Partner } from "@/test/partner";
import * as feed from "./route";

type Event = {
  id: string;
  type: string;
  created: string;
  referenceSource: string | null;
  sourceIdentifier: string | null;
  data: Record<string, unknown> & { shippingOrder?: Record<string, unknown> & { id: string; status: string } };
};
type Feed = { items: Event[]; next: string | null };

const post = (partner: Partner, body: unknown) =>
  as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
    body,
    headers: { "content-type": "application/json" },
    params: { courier_id: "sandbox" },
  });

async function events(partner: Partner, query = ""): Promise<Feed> {
  const response = await as(partner)(feed.GET, `/api/v2/events${query}`);
  expect(response.status).toBe(200);
  return readJson<Feed>(response);
}

const problem = async (partner: Partner, query: string) => {
  const response = await as(partner)(feed.GET, `/api/v2/events${query}`);
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return readJson<{ errors: { field: string }[] }>(response);
};

describe("order events", () => {
  it("records created with the order exactly as GET returns it, with the source pair", async () => {
    const partner = await createPartner();
    await activatePair(partner, "eshop", "cz-1");
    const created = await readJson<{ items: { id: string }[] }>(
      await post(partner, order({ ReferenceSource: "eshop", SourceIdentifier: "cz-1", Note: "ring twice" })),
    );
    const id = created.items[0]!.id;
    const { items } = await events(partner);
    expect(items).toHaveLength(1);
    const [event] = items;
    expect(event).toMatchObject({ type: "shipping_order.created", referenceSource: "eshop", sourceIdentifier: "cz-1" });
    expect(event!.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(event!.data.replaced).toBeNull();
    const got = await readJson(await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${id}`, { params: { id } }));
    expect(event!.data.shippingOrder).toEqual(got);
  });

  it("records a replacement as cancelled (replaced) of the predecessor and created naming it", async () => {
    const partner = await createPartner();
    const body = order();
    const first = (await readJson<{ items: { id: string }[] }>(await post(partner, body))).items[0]!.id;
    const second = (await readJson<{ items: { id: string }[] }>(await post(partner, body))).items[0]!.id;
    const { items } = await events(partner, "?types=shipping_order.cancelled,shipping_order.created");
    expect(items.map((e) => [e.type, e.data.shippingOrder!.id])).toEqual([
      ["shipping_order.created", first],
      ["shipping_order.cancelled", first],
      ["shipping_order.created", second],
    ]);
    expect(items[1]!.data).toMatchObject({ reason: "replaced", shippingOrder: { status: "CANCELLED" } });
    expect(items[2]!.data.replaced).toBe(first);
  });

  it("records a delete as cancelled (deleted)", async () => {
    const partner = await createPartner();
    const id = (await readJson<{ items: { id: string }[] }>(await post(partner, order()))).items[0]!.id;
    expect(
      (await as(partner)(orderItem.DELETE, `/api/v2/shipping-orders/${id}`, { method: "DELETE", params: { id } }))
        .status,
    ).toBe(204);
    const { items } = await events(partner, "?types=shipping_order.cancelled");
    expect(items).toHaveLength(1);
    expect(items[0]!.data).toMatchObject({ reason: "deleted", shippingOrder: { id, status: "CANCELLED" } });
  });

  it("records courier refusals and timeouts as courier_rejected, with no order", async () => {
    const partner = await createPartner();
    const response = await post(partner, [
      order({ ReferenceNumber: "COURIER-FAIL-1", ExternalReference: "EXT-1" }),
      order({ ReferenceNumber: "COURIER-TIMEOUT-1" }),
    ]);
    expect(response.status).toBe(200);
    const { items } = await events(partner);
    expect(items.map((e) => e.data.code).sort()).toEqual(["COURIER_REJECTED", "COURIER_TIMEOUT"]);
    const refused = items.find((e) => e.data.code === "COURIER_REJECTED")!;
    expect(refused).toMatchObject({
      type: "shipping_order.courier_rejected",
      referenceSource: "api",
      sourceIdentifier: "default",
    });
    expect(refused.data).toEqual({
      referenceNumber: "COURIER-FAIL-1",
      externalReference: "EXT-1",
      code: "COURIER_REJECTED",
      message: expect.any(String),
      courier: "sandbox",
      courierProfile: partner.profileId,
    });
  });

  it("emits nothing for a create that rolls back", async () => {
    const partner = await createPartner();
    const taken = (await readJson<{ items: { shippingNumber: string[] }[] }>(await post(partner, order()))).items[0]!
      .shippingNumber[0]!;
    const db = await getDb();
    const before = (await events(partner)).items.length;
    // A shipping number already stored: the parcel insert fails inside the transaction, after the order row.
    await expect(
      persistOrders(
        db,
        {
          accountId: partner.accountId,
          apiKeyId: partner.keyId,
          courier: sandboxCourier,
          courierProfileId: partner.profileId,
          settings: {},
          preventDuplicateOrders: false,
          baseUrl: "http://localhost",
        },
        [
          {
            order: order() as never,
            referenceSource: "api",
            sourceIdentifier: "default",
            service: "STANDARD",
            shipment: { referenceNumber: "TAKEN", shippingNumbers: [taken], trackingUrl: null, courierData: {} },
          },
        ],
      ),
    ).rejects.toThrow();
    expect((await events(partner)).items).toHaveLength(before);
    const [jobs] = await db
      .execute(sql`select count(*)::int as n from ${parcels} where shipping_number = ${taken}`)
      .then((r) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { n: number }[]);
    expect(jobs!.n).toBe(1);
  });

  it("records status_changed from the tracking worker with no one reading the order; GET shows the same state", async () => {
    const partner = await createPartner({ trackingStepMinutes: 1 });
    const id = (await readJson<{ items: { id: string }[] }>(await post(partner, order()))).items[0]!.id;
    const db = await getDb();
    const later = new Date(Date.now() + 3 * 60_000);
    while ((await advanceDueTracking(db, { courier: "sandbox", now: later })) > 0);
    const { items } = await events(partner, "?types=shipping_order.status_changed");
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]!.data.previousStatus).toBe("CREATED");
    const latest = items.at(-1)!.data.shippingOrder!;
    expect(latest.id).toBe(id);
    const got = await readJson<{ status: string }>(
      await as(partner)(orderItem.GET, `/api/v2/shipping-orders/${id}`, { params: { id } }),
    );
    expect(got.status).toBe(latest.status);
    expect(latest.labelUrl).toBe(`http://localhost/api/v2/shipping-orders/${id}/label`);
  });
});

describe("GET /events", () => {
  it("filters by type and source pair, pages oldest first with a cursor, and shows only the account's events", async () => {
    const partner = await createPartner();
    const other = await createPartner();
    await activatePair(partner, "shop", "a");
    await post(other, order());
    for (const pair of [
      {},
      { ReferenceSource: "shop", SourceIdentifier: "a" },
      {},
      { ReferenceSource: "shop", SourceIdentifier: "a" },
    ])
      await post(partner, order(pair));
    const all = await events(partner);
    expect(all.items).toHaveLength(4);
    expect(all.next).toBeNull();
    const page1 = await events(partner, "?limit=3");
    expect(page1.items.map((e) => e.id)).toEqual(all.items.slice(0, 3).map((e) => e.id));
    expect(page1.next).toBe(all.items[2]!.id);
    const page2 = await events(partner, `?limit=3&after=${page1.next}`);
    expect(page2.items.map((e) => e.id)).toEqual([all.items[3]!.id]);
    expect(page2.next).toBeNull();
    expect((await events(partner, `?after=${all.items[3]!.id}`)).items).toEqual([]);

    const shop = await events(partner, "?referenceSource=shop");
    expect(shop.items.map((e) => e.sourceIdentifier)).toEqual(["a", "a"]);
    expect((await events(partner, "?sourceIdentifier=default")).items).toHaveLength(2);
    expect((await events(partner, "?referenceSource=shop&sourceIdentifier=default")).items).toHaveLength(0);
    expect((await events(partner, "?types=shipping_order.cancelled")).items).toHaveLength(0);
    expect((await events(partner, "?types=shipping_order.created&types=shipping_order.cancelled")).items).toHaveLength(
      4,
    );
  });

  it("answers 400 naming the parameter for an unknown cursor, type, limit or parameter, and 403 without events:read", async () => {
    const partner = await createPartner();
    const other = await createPartner();
    await post(other, order());
    const foreign = (await events(other)).items[0]!.id;
    for (const [query, field] of [
      [`?after=${foreign}`, "after"],
      [`?after=${crypto.randomUUID()}`, "after"],
      ["?after=nope", "after"],
      ["?types=shipping_order.exploded", "types"],
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=x", "limit"],
      ["?referenceSourc=shop", "referenceSourc"],
    ] as const) {
      const body = await problem(partner, query);
      expect(body.errors.map((e) => e.field)).toContain(field);
    }
    const narrow = await createPartner({ permissions: ["shipping-orders:read"] });
    expect((await as(narrow)(feed.GET, "/api/v2/events")).status).toBe(403);
  });
});
