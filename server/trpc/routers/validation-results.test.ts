import { beforeAll, describe, expect, it } from "vitest";
import { order } from "@/test/partner";
import { callerFor, codeOf, suiteUsers } from "@/test/trpc";

describe("tRPC validationResults", () => {
  const users = suiteUsers({ partners: true });
  let reference: string;
  beforeAll(async () => {
    reference = `VR-TRPC-${Date.now()}`;
    await (
      await callerFor(users.owner)
    ).shippingOrders.validate({
      accountId: users.owner.accountId,
      courierId: "sandbox",
      body: order({ ReferenceNumber: reference, Parcels: [] }),
    });
  });

  it("shows a partner their own account's results with the request and messages", async () => {
    const api = await callerFor(users.owner);
    const list = await api.validationResults.list({ accountId: users.owner.accountId, referenceNumber: reference });
    expect(list.items).toEqual([
      expect.objectContaining({ referenceNumber: reference, status: "ERROR", accountId: users.owner.accountId }),
    ]);
    const detail = await api.validationResults.get({ id: list.items[0]!.id });
    expect(detail.requestBody).toMatchObject({ ReferenceNumber: reference });
    expect(detail.messages).toContainEqual(expect.objectContaining({ field: "Parcels", severity: "ERROR" }));
  });

  it("hides them from another partner, who must name their own account", async () => {
    const api = await callerFor(users.stranger);
    const [id] = (
      await (
        await callerFor(users.owner)
      ).validationResults.list({ accountId: users.owner.accountId, referenceNumber: reference })
    ).items.map((r) => r.id);
    expect(await codeOf(api.validationResults.list({ accountId: users.owner.accountId }))).toBe("NOT_FOUND");
    expect(await codeOf(api.validationResults.get({ id: id! }))).toBe("NOT_FOUND");
    expect(await codeOf(api.validationResults.list({}))).toBe("BAD_REQUEST");
    expect(
      (await api.validationResults.list({ accountId: users.stranger.accountId, referenceNumber: reference })).items,
    ).toEqual([]);
  });

  it("shows staff every account's results, or one account's, with the account's name", async () => {
    const api = await callerFor(users.staff, { staff: true });
    const all = await api.validationResults.list({ referenceNumber: reference });
    expect(all.items).toEqual([
      expect.objectContaining({ accountId: users.owner.accountId, accountName: expect.stringContaining("Account") }),
    ]);
    expect(
      (await api.validationResults.list({ accountId: users.stranger.accountId, referenceNumber: reference })).items,
    ).toEqual([]);
    expect((await api.validationResults.get({ id: all.items[0]!.id })).referenceNumber).toBe(reference);
  });
});
