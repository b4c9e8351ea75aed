import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { createTestUser } from "@/test/helpers";
import { createPartner, order } from "@/test/partner";
import { callerFor } from "@/test/trpc";

describe("tRPC overview", () => {
  it("gives a member the account's figures and another account NOT_FOUND", async () => {
    const partner = await createPartner();
    const member = await createTestUser({ accountId: partner.accountId, role: "member" });
    await (
      await callerFor(partner)
    ).shippingOrders.validate({ accountId: partner.accountId, courierId: "sandbox", body: order({ Parcels: [] }) });
    const overview = await (await callerFor(member)).overview.get({ accountId: partner.accountId });
    expect(overview.validationErrorsByDay).toEqual([{ day: new Date().toISOString().slice(0, 10), count: 1 }]);
    expect(overview.keyUsage).toEqual([expect.objectContaining({ id: partner.keyId, ordersLast7Days: 0 })]);
    const error = await (
      await callerFor(await createTestUser())
    ).overview
      .get({ accountId: partner.accountId })
      .catch((e: unknown) => e);
    expect((error as TRPCError).code).toBe("NOT_FOUND");
  });
});
