import { describe, expect, it } from "vitest";
import * as feed from "@/app/api/v2/events/route";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { getDb } from "@/db/client";
import { advanceDueTracking } from "@/server/services/shipping-orders/advance-tracking";
import { createTRPCContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { readJson } from "./helpers";
import { as, createPartner, order } from "./partner";
import { sessionOf } from "./trpc";

// No PUBLIC_URL, as in development: the origin of links is http://localhost:<PORT>, whatever a request names.
delete process.env.PUBLIC_URL;
process.env.PORT = "3999";
const ORIGIN = "http://localhost:3999";

/** What a client (a read-only member's browser, a partner's script) can put in front of any request. */
const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

type Order = { id: string; labelUrl: string };

describe("absolute links (issue 29, item 4)", () => {
  it("REST: labelUrl is on the configured origin, never on the Host or X-Forwarded-Host the request names", async () => {
    const partner = await createPartner();
    // What Next hands a route handler for a request to Host: evil.example: a URL on that host.
    const request = new Request("https://evil.example/api/v2/couriers/sandbox/shipping-orders", {
      method: "POST",
      headers: { ...forged, "x-api-key": partner.key, "content-type": "application/json" },
      body: JSON.stringify(order()),
    });
    const response = await create.POST(request, { params: Promise.resolve({ courier_id: "sandbox" }) });
    expect(response.status).toBe(200);
    const { items } = await readJson<{ items: Order[] }>(response);
    expect(items[0]!.labelUrl).toBe(`${ORIGIN}/api/v2/shipping-orders/${items[0]!.id}/label`);
  });

  it("tRPC and the tracking worker: an order created with forged headers keeps links on the origin in every event", async () => {
    const partner = await createPartner({ trackingStepMinutes: 1 });
    const caller = createCaller(await createTRPCContext({ session: sessionOf(partner), headers: new Headers(forged) }));
    const created = (await caller.shippingOrders.create({
      accountId: partner.accountId,
      courierId: "sandbox",
      body: order(),
    })) as { items: Order[] };
    const id = created.items[0]!.id;
    expect(created.items[0]!.labelUrl).toBe(`${ORIGIN}/api/v2/shipping-orders/${id}/label`);

    // Later, with no request at all: the worker's status_changed events of that order.
    const later = new Date(Date.now() + 3 * 60_000);
    while ((await advanceDueTracking(await getDb(), { courier: "sandbox", now: later })) > 0);
    const response = await as(partner)(feed.GET, "/api/v2/events");
    const { items } = await readJson<{ items: { type: string; data: { shippingOrder?: Order } }[] }>(response);
    const ofOrder = items.filter((e) => e.data.shippingOrder?.id === id);
    expect(ofOrder.map((e) => e.type)).toContain("shipping_order.status_changed");
    for (const event of ofOrder)
      expect(event.data.shippingOrder!.labelUrl, event.type).toBe(`${ORIGIN}/api/v2/shipping-orders/${id}/label`);
  });
});
