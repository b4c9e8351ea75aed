import { and, eq, isNull } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { shippingOrders } from "@/db/schema";
import { sandboxCourier } from "@/server/couriers/sandbox";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { readJson } from "@/test/helpers";
import { as, createPartner, order } from "@/test/partner";

type Created = { items: { id: string; shippingNumber: string[] }[] };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Idempotency-Key on create", () => {
  it("replays the stored answer for the same key and body, without a second courier call", async () => {
    const partner = await createPartner();
    const body = order({ ReferenceNumber: "IDEM-1" });
    const send = () =>
      as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body,
        headers: { "idempotency-key": "k-1" },
        params: { courier_id: "sandbox" },
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const [a, b] = [await readJson<Created>(first), await readJson<Created>(second)];
    expect(b).toEqual(a);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const live = await (
      await getDb()
    )
      .select()
      .from(shippingOrders)
      .where(and(eq(shippingOrders.accountId, partner.accountId), isNull(shippingOrders.deletedAt)));
    expect(live.map((o) => o.id)).toEqual([a.items[0]!.id]);
  });

  it("replays a 400 validation answer as well", async () => {
    const partner = await createPartner();
    const body = order({ Parcels: [] });
    const send = () =>
      as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body,
        headers: { "idempotency-key": "bad-1" },
        params: { courier_id: "sandbox" },
      });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([400, 400]);
    expect(await readJson(second)).toEqual(await readJson(first));
  });

  it("answers 422 for the same key with another body, and scopes keys to the account", async () => {
    const partner = await createPartner();
    const post = (body: unknown, p = partner) =>
      as(p)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body,
        headers: { "idempotency-key": "shared" },
        params: { courier_id: "sandbox" },
      });
    expect((await post(order({ ReferenceNumber: "A" }))).status).toBe(200);
    const other = await post(order({ ReferenceNumber: "B" }));
    expect(other.status).toBe(422);
    expect(other.headers.get("content-type")).toBe("application/problem+json");
    const stranger = await createPartner();
    expect((await post(order({ ReferenceNumber: "B" }), stranger)).status).toBe(200);
  });

  it("answers 409 while the first request is still running", async () => {
    const partner = await createPartner({ timeoutMs: 60_000 });
    const body = order({ ReferenceNumber: "IDEM-SLOW" });
    // The courier holds the first request until the second has been answered: no guess at how long either takes.
    const book = sandboxCourier.createShipments.bind(sandboxCourier);
    let reached!: () => void;
    const courierReached = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(sandboxCourier, "createShipments").mockImplementation(async (requests, settings, context) => {
      reached();
      await released;
      return book(requests, settings, context);
    });
    const send = () =>
      as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body,
        headers: { "idempotency-key": "slow" },
        params: { courier_id: "sandbox" },
      });
    const slow = send();
    await courierReached;
    const concurrent = await send();
    release();
    expect(concurrent.status).toBe(409);
    expect(concurrent.headers.get("retry-after")).toBe("1");
    const first = await slow;
    expect(first.status).toBe(200);
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await readJson(replay)).toEqual(await readJson(first));
  });

  it("refuses a malformed key with 400 naming the header", async () => {
    const partner = await createPartner();
    const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: order(),
      headers: { "idempotency-key": "x".repeat(300) },
      params: { courier_id: "sandbox" },
    });
    expect(response.status).toBe(400);
    expect((await readJson<{ errors: { field: string }[] }>(response)).errors[0]!.field).toBe("Idempotency-Key");
  });
});
