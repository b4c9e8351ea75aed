import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { activatePair, as, createPartner, order } from "@/test/partner";
import { getAccountOverview } from "./get-account-overview";

describe("account overview", () => {
  it("counts live orders by status and source pair, validation errors by day, and key usage", async () => {
    const p = await createPartner();
    await activatePair(p, "shop", "cz");
    const post = (body: unknown) =>
      as(p)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", { body, params: { courier_id: "sandbox" } });
    await post([order(), order(), order({ ReferenceSource: "shop", SourceIdentifier: "cz" })]);
    await post(order({ Parcels: [] }));
    const overview = await getAccountOverview(await getDb(), { userId: p.userId, isStaff: false }, p.accountId);
    expect(overview.ordersByStatus).toEqual([{ status: "CREATED", count: 3 }]);
    expect(overview.ordersBySourcePair).toEqual([
      { referenceSource: "api", sourceIdentifier: "default", count: 2 },
      { referenceSource: "shop", sourceIdentifier: "cz", count: 1 },
    ]);
    expect(overview.validationErrorsByDay).toEqual([{ day: new Date().toISOString().slice(0, 10), count: 1 }]);
    expect(overview.keyUsage).toEqual([
      expect.objectContaining({ id: p.keyId, ordersLast7Days: 3, lastUsed: expect.any(String) }),
    ]);
  });
});
