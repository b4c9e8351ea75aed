import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { getDb } from "@/db/client";
import { shippingOrders, validationResults } from "@/db/schema";
import { readJson } from "@/test/helpers";
import { activatePair, as, order, type Partner } from "@/test/partner";
import { callerFor, codeOf, suiteUsers } from "@/test/trpc";

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
  const users = suiteUsers({ partners: true });

  it("lists the account's orders with the REST list's filters, and gets one with parcels and tracking", async () => {
    await activatePair(users.owner, "shop", "cz");
    const first = await createOrder(users.owner, order({ ReferenceNumber: "TRPC-LIST-1" }));
    await createOrder(
      users.owner,
      order({ ReferenceNumber: "TRPC-LIST-2", ReferenceSource: "shop", SourceIdentifier: "cz" }),
    );
    const api = await callerFor(users.member);

    const all = await api.shippingOrders.list({ accountId: users.owner.accountId });
    expect(all.items.map((o) => o.referenceNumber)).toEqual(["TRPC-LIST-2", "TRPC-LIST-1"]);
    const filtered = await api.shippingOrders.list({
      accountId: users.owner.accountId,
      referenceNumbers: ["TRPC-LIST-1"],
      status: ["CREATED"],
      pageSize: "1",
    });
    expect(filtered).toMatchObject({
      itemsCount: 1,
      pageSize: 1,
      items: [{ id: first.id, referenceSource: "api", sourceIdentifier: "default" }],
    });

    const got = await api.shippingOrders.get({ accountId: users.owner.accountId, id: first.id });
    expect(got).toMatchObject({
      id: first.id,
      parcels: [{ weight: 1.5 }],
      shipmentTracking: { events: [expect.objectContaining({ status: "CREATED" })] },
    });
    expect(got.shippingNumber).toEqual([got.parcels[0]!.shippingNumber]);
  });

  it("names the filter at fault, as the REST list does", async () => {
    const api = await callerFor(users.owner);
    const error = (await api.shippingOrders
      .list({ accountId: users.owner.accountId, createdFrom: "2026-02-30" })
      .catch((e: unknown) => e)) as TRPCError;
    expect(error.code).toBe("BAD_REQUEST");
  });

  it("answers NOT_FOUND for another account's orders, whatever the operation", async () => {
    const theirs = await createOrder(users.stranger, order());
    const api = await callerFor(users.owner);
    expect(await codeOf(api.shippingOrders.list({ accountId: users.stranger.accountId }))).toBe("NOT_FOUND");
    expect(await codeOf(api.shippingOrders.get({ accountId: users.stranger.accountId, id: theirs.id }))).toBe(
      "NOT_FOUND",
    );
    // Naming the own account does not reach another account's order either.
    expect(await codeOf(api.shippingOrders.get({ accountId: users.owner.accountId, id: theirs.id }))).toBe("NOT_FOUND");
    expect(await codeOf(api.shippingOrders.delete({ accountId: users.owner.accountId, id: theirs.id }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(api.shippingOrders.get({ accountId: users.owner.accountId, id: "not-a-uuid" }))).toBe(
      "NOT_FOUND",
    );
    expect(
      (
        await (
          await callerFor(users.stranger)
        ).shippingOrders.get({ accountId: users.stranger.accountId, id: theirs.id })
      ).id,
    ).toBe(theirs.id);
  });

  it("deletes an order for owners and staff, not for members", async () => {
    const mine = await createOrder(users.owner, order());
    expect(
      await codeOf(
        (await callerFor(users.member)).shippingOrders.delete({ accountId: users.owner.accountId, id: mine.id }),
      ),
    ).toBe("FORBIDDEN");
    await (await callerFor(users.owner)).shippingOrders.delete({ accountId: users.owner.accountId, id: mine.id });
    expect(
      await codeOf(
        (await callerFor(users.owner)).shippingOrders.get({ accountId: users.owner.accountId, id: mine.id }),
      ),
    ).toBe("NOT_FOUND");

    const supported = await createOrder(users.owner, order());
    await (
      await callerFor(users.staff, { staff: true })
    ).shippingOrders.delete({ accountId: users.owner.accountId, id: supported.id });
    expect(
      await codeOf(
        (await callerFor(users.owner)).shippingOrders.get({ accountId: users.owner.accountId, id: supported.id }),
      ),
    ).toBe("NOT_FOUND");
  });

  it("keeps a cancelled order out of every list and answers NOT_FOUND; status CANCELLED lists courier cancellations", async () => {
    const caller = await callerFor(users.owner);
    const accountId = users.owner.accountId;
    const cancelled = await createOrder(users.owner, order({ ReferenceNumber: "TRPC-CANCEL-1" }));
    const byCourier = await createOrder(users.owner, order({ ReferenceNumber: "TRPC-CANCEL-2" }));
    await caller.shippingOrders.delete({ accountId, id: cancelled.id });
    // The courier reports the other one cancelled on its side (Packeta code 11, PPL `Canceled`): it stays an order.
    await (
      await getDb()
    )
      .update(shippingOrders)
      .set({ status: "CANCELLED" })
      .where(eq(shippingOrders.id, byCourier.id));
    const listed = await caller.shippingOrders.list({
      accountId,
      status: ["CANCELLED"],
      referenceNumbers: ["TRPC-CANCEL-1", "TRPC-CANCEL-2"],
    });
    expect(listed.items.map((o) => o.id)).toEqual([byCourier.id]);
    expect(await codeOf(caller.shippingOrders.get({ accountId, id: cancelled.id }))).toBe("NOT_FOUND");
  });

  it("validates with the account's default profile and records the result with the user, not a key", async () => {
    const api = await callerFor(users.member);
    const result = await api.shippingOrders.validate({
      accountId: users.owner.accountId,
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
        accountId: users.owner.accountId,
        userId: users.member.userId,
        apiKeyId: null,
        status: "ERROR",
        operation: "validate",
      }),
    ]);
  });

  it("validates a batch in input order, and refuses an unknown source pair or profile", async () => {
    const api = await callerFor(users.owner);
    const batch = await api.shippingOrders.validate({
      accountId: users.owner.accountId,
      courierId: "sandbox",
      profileId: users.owner.profileId,
      body: [order(), order({ Parcels: [] })],
    });
    expect(Array.isArray(batch) ? batch.map((r) => r.status) : batch).toEqual(["OK", "ERROR"]);
    const unknownPair = order({ ReferenceSource: "nowhere", SourceIdentifier: "x" });
    expect(
      await codeOf(
        api.shippingOrders.validate({ accountId: users.owner.accountId, courierId: "sandbox", body: unknownPair }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(
      await codeOf(
        api.shippingOrders.validate({
          accountId: users.owner.accountId,
          courierId: "sandbox",
          profileId: users.stranger.profileId,
          body: order(),
        }),
      ),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(
        api.shippingOrders.validate({ accountId: users.stranger.accountId, courierId: "sandbox", body: order() }),
      ),
    ).toBe("NOT_FOUND");
  });
});
