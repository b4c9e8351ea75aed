import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, type TestUser } from "@/test/helpers";
import { createPartner, order, type Partner } from "@/test/partner";
import { callerFor } from "@/test/trpc";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof TRPCError ? error.code : error),
  );

describe("tRPC validationResults", () => {
  let partner: Partner;
  let other: Partner;
  let staff: TestUser;
  let reference: string;
  beforeAll(async () => {
    partner = await createPartner();
    other = await createPartner();
    staff = await createTestUser({ staff: true });
    reference = `VR-TRPC-${Date.now()}`;
    await (
      await callerFor(partner)
    ).shippingOrders.validate({
      accountId: partner.accountId,
      courierId: "sandbox",
      body: order({ ReferenceNumber: reference, Parcels: [] }),
    });
  });

  it("shows a partner their own account's results with the request and messages", async () => {
    const api = await callerFor(partner);
    const list = await api.validationResults.list({ accountId: partner.accountId, referenceNumber: reference });
    expect(list.items).toEqual([
      expect.objectContaining({ referenceNumber: reference, status: "ERROR", accountId: partner.accountId }),
    ]);
    const detail = await api.validationResults.get({ id: list.items[0]!.id });
    expect(detail.requestBody).toMatchObject({ ReferenceNumber: reference });
    expect(detail.messages).toContainEqual(expect.objectContaining({ field: "Parcels", severity: "ERROR" }));
  });

  it("hides them from another partner, who must name their own account", async () => {
    const api = await callerFor(other);
    const [id] = (
      await (
        await callerFor(partner)
      ).validationResults.list({ accountId: partner.accountId, referenceNumber: reference })
    ).items.map((r) => r.id);
    expect(await codeOf(api.validationResults.list({ accountId: partner.accountId }))).toBe("NOT_FOUND");
    expect(await codeOf(api.validationResults.get({ id: id! }))).toBe("NOT_FOUND");
    expect(await codeOf(api.validationResults.list({}))).toBe("BAD_REQUEST");
    expect(
      (await api.validationResults.list({ accountId: other.accountId, referenceNumber: reference })).items,
    ).toEqual([]);
  });

  it("shows staff every account's results, or one account's, with the account's name", async () => {
    const api = await callerFor(staff, { staff: true });
    const all = await api.validationResults.list({ referenceNumber: reference });
    expect(all.items).toEqual([
      expect.objectContaining({ accountId: partner.accountId, accountName: expect.stringContaining("Account") }),
    ]);
    expect(
      (await api.validationResults.list({ accountId: other.accountId, referenceNumber: reference })).items,
    ).toEqual([]);
    expect((await api.validationResults.get({ id: all.items[0]!.id })).referenceNumber).toBe(reference);
  });
});
