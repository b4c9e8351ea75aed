import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { getDb } from "@/db/client";
import { shippingOrders } from "@/db/schema";
import { readJson } from "@/test/helpers";
import { as, createPartner, order } from "@/test/partner";
import { advanceDueTracking } from "./advance-tracking";

describe("tracking of an order whose courier is no longer registered", () => {
  it("leaves the schedule instead of filling every batch, and the other orders' tracking goes on", async () => {
    const db = await getDb();
    const partner = await createPartner({ trackingStepMinutes: 1 });
    const createOne = async () => {
      const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
        body: order(),
        headers: { "content-type": "application/json" },
        params: { courier_id: "sandbox" },
      });
      return (await readJson<{ items: { id: string }[] }>(response)).items[0]!.id;
    };
    const orphan = await createOne();
    const tracked = await createOne();
    // The orphan's courier was removed from the registry; it is due first.
    await db
      .update(shippingOrders)
      .set({ courier: "retired-courier", trackingNextAt: sql`now() - interval '1 hour'` })
      .where(eq(shippingOrders.id, orphan));
    await db
      .update(shippingOrders)
      .set({ trackingNextAt: sql`now() - interval '1 minute'` })
      .where(eq(shippingOrders.id, tracked));
    const later = new Date(Date.now() + 10 * 60_000);
    // The tick asks each registered courier for its own due orders (the orphan is in none of their batches) and
    // takes the orphan off the schedule.
    await advanceDueTracking(db, { courier: "retired-courier", now: later });
    while ((await advanceDueTracking(db, { courier: "sandbox", now: later })) > 0);
    const rows = await db
      .select({ id: shippingOrders.id, status: shippingOrders.status, next: shippingOrders.trackingNextAt })
      .from(shippingOrders)
      .where(sql`${shippingOrders.id} in (${orphan}, ${tracked})`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(orphan)).toMatchObject({ status: "CREATED", next: null });
    expect(byId.get(tracked)!.status).not.toBe("CREATED");
  });
});
