import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { getDb } from "@/db/client";
import { validationResults } from "@/db/schema";
import { createTestUser, readJson, type TestUser } from "@/test/helpers";
import { activatePair, as, createPartner, order, type Partner } from "@/test/partner";
import { callerFor } from "@/test/trpc";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof TRPCError ? error.code : error),
  );

async function createOrder(
  partner: Partner,
  body: Record<string, unknown>,
): Promise<{ id: string; referenceNumber: string }> {
  const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
    body,
    params: { courier_id: "sandbox" },
  });
  return (await readJson<{ items: { id: string; referenceNumber: string }[] }>(response)).items[0]!;
}

describe("tRPC shippingOrders", () => {
  let partner: Partner;
  let member: TestUser;
  let stranger: Partner;
  let staff: TestUser;
  beforeAll(async () => {
    partner = await createPartner();
    member = await createTestUser({ accountId: partner.accountId, role: "member" });
    stranger = await createPartner();
    staff = await createTestUser({ staff: true });
  });

  it("lists the account's orders with the REST list's filters, and gets one with parcels and tracking", async () => {
    await activatePair(partner, "shop", "cz");
    const first = await createOrder(partner, order({ ReferenceNumber: "TRPC-LIST-1" }));
    await createOrder(
      partner,
      order({ ReferenceNumber: "TRPC-LIST-2", ReferenceSource: "shop", SourceIdentifier: "cz" }),
    );
    const api = await callerFor(member);

    const all = await api.shippingOrders.list({ accountId: partner.accountId });
    expect(all.items.map((o) => o.referenceNumber)).toEqual(["TRPC-LIST-2", "TRPC-LIST-1"]);
    const filtered = await api.shippingOrders.list({
      accountId: partner.accountId,
      referenceNumbers: ["TRPC-LIST-1"],
      status: ["CREATED"],
      pageSize: "1",
    });
    expect(filtered).toMatchObject({
      itemsCount: 1,
      pageSize: 1,
      items: [{ id: first.id, referenceSource: "api", sourceIdentifier: "default" }],
    });

    const got = await api.shippingOrders.get({ accountId: partner.accountId, id: first.id });
    expect(got).toMatchObject({
      id: first.id,
      parcels: [{ weight: 1.5 }],
      shipmentTracking: { events: [expect.objectContaining({ status: "CREATED" })] },
    });
    expect(got.shippingNumber).toEqual([got.parcels[0]!.shippingNumber]);
  });

  it("names the filter at fault, as the REST list does", async () => {
    const api = await callerFor(partner);
    const error = (await api.shippingOrders
      .list({ accountId: partner.accountId, createdFrom: "2026-02-30" })
      .catch((e: unknown) => e)) as TRPCError;
    expect(error.code).toBe("BAD_REQUEST");
  });

  it("answers NOT_FOUND for another account's orders, whatever the operation", async () => {
    const theirs = await createOrder(stranger, order());
    const api = await callerFor(partner);
    expect(await codeOf(api.shippingOrders.list({ accountId: stranger.accountId }))).toBe("NOT_FOUND");
    expect(await codeOf(api.shippingOrders.get({ accountId: stranger.accountId, id: theirs.id }))).toBe("NOT_FOUND");
    // Naming the own account does not reach another account's order either.
    expect(await codeOf(api.shippingOrders.get({ accountId: partner.accountId, id: theirs.id }))).toBe("NOT_FOUND");
    expect(await codeOf(api.shippingOrders.delete({ accountId: partner.accountId, id: theirs.id }))).toBe("NOT_FOUND");
    expect(await codeOf(api.shippingOrders.get({ accountId: partner.accountId, id: "not-a-uuid" }))).toBe("NOT_FOUND");
    expect(
      (await (await callerFor(stranger)).shippingOrders.get({ accountId: stranger.accountId, id: theirs.id })).id,
    ).toBe(theirs.id);
  });

  it("deletes an order for owners and staff, not for members", async () => {
    const mine = await createOrder(partner, order());
    expect(
      await codeOf((await callerFor(member)).shippingOrders.delete({ accountId: partner.accountId, id: mine.id })),
    ).toBe("FORBIDDEN");
    await (await callerFor(partner)).shippingOrders.delete({ accountId: partner.accountId, id: mine.id });
    expect(
      await codeOf((await callerFor(partner)).shippingOrders.get({ accountId: partner.accountId, id: mine.id })),
    ).toBe("NOT_FOUND");

    const supported = await createOrder(partner, order());
    await (
      await callerFor(staff, { staff: true })
    ).shippingOrders.delete({ accountId: partner.accountId, id: supported.id });
    expect(
      await codeOf((await callerFor(partner)).shippingOrders.get({ accountId: partner.accountId, id: supported.id })),
    ).toBe("NOT_FOUND");
  });

  it("validates with the account's default profile and records the result with the user, not a key", async () => {
    const api = await callerFor(member);
    const result = await api.shippingOrders.validate({
      accountId: partner.accountId,
      courierId: "sandbox",
      body: order({
        ReferenceNumber: "TRPC-VALIDATE",
        Recipient: { Name: "A", Street: "B 1", City: "C", Zip: "1", Country: "CZ" },
        Parcels: [{ Weight: 1 }, { Weight: 40 }],
      }),
    });
    expect(result).toMatchObject({ status: "ERROR", referenceNumber: "TRPC-VALIDATE" });
    const fields = (Array.isArray(result) ? [] : result.messages).map((m) => m.field);
    expect(fields).toEqual(expect.arrayContaining(["Recipient.Zip", "Parcels[1].Weight", "Recipient.Email"]));

    const rows = await (
      await getDb()
    )
      .select()
      .from(validationResults)
      .where(eq(validationResults.referenceNumber, "TRPC-VALIDATE"));
    expect(rows).toEqual([
      expect.objectContaining({
        accountId: partner.accountId,
        userId: member.userId,
        apiKeyId: null,
        status: "ERROR",
        operation: "validate",
      }),
    ]);
  });

  it("validates a batch in input order, and refuses an unknown source pair or profile", async () => {
    const api = await callerFor(partner);
    const batch = await api.shippingOrders.validate({
      accountId: partner.accountId,
      courierId: "sandbox",
      profileId: partner.profileId,
      body: [order(), order({ Parcels: [] })],
    });
    expect(Array.isArray(batch) ? batch.map((r) => r.status) : batch).toEqual(["OK", "ERROR"]);
    const unknownPair = order({ ReferenceSource: "nowhere", SourceIdentifier: "x" });
    expect(
      await codeOf(
        api.shippingOrders.validate({ accountId: partner.accountId, courierId: "sandbox", body: unknownPair }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(
      await codeOf(
        api.shippingOrders.validate({
          accountId: partner.accountId,
          courierId: "sandbox",
          profileId: stranger.profileId,
          body: order(),
        }),
      ),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(api.shippingOrders.validate({ accountId: stranger.accountId, courierId: "sandbox", body: order() })),
    ).toBe("NOT_FOUND");
  });
});
