import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { validationResults } from "@/db/schema";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { createTestUser, readJson } from "@/test/helpers";
import { activatePair, as, createPartner, order, type Partner } from "@/test/partner";
import { callerFor } from "@/test/trpc";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof TRPCError ? error.code : error),
  );

/** A REST create with the body sent as this exact text, so the test can check the request is kept as sent. */
async function createAsText(partner: Partner, text: string) {
  const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
    rawBody: text,
    headers: { "content-type": "application/json" },
    params: { courier_id: "sandbox" },
  });
  return readJson<{ items: { id: string; referenceNumber: string }[]; failed: { code: string }[] }>(response);
}

describe("refused create attempts", () => {
  it("keeps an order the courier refused, as sent, visible to its account, with the outcome on its validation result", async () => {
    const partner = await createPartner();
    await activatePair(partner, "shop", "cz");
    // Keys in an order jsonb would not keep (it sorts by length, then bytes): Zip before Name, Parcels first.
    const sent = {
      Parcels: [{ Weight: 2 }],
      ReferenceNumber: "COURIER-FAIL-R1",
      ReferenceSource: "shop",
      SourceIdentifier: "cz",
      Recipient: {
        Zip: "110 00",
        Name: "Jana Nováková",
        Street: "Dlouhá 12",
        City: "Praha",
        Country: "CZ",
        Email: "jana@example.com",
      },
    };
    const answer = await createAsText(partner, JSON.stringify(sent));
    expect(answer.failed).toEqual([expect.objectContaining({ code: "COURIER_REJECTED" })]);

    const api = await callerFor(partner);
    const list = await api.refusedAttempts.list({ accountId: partner.accountId });
    expect(list.items).toEqual([
      expect.objectContaining({
        referenceNumber: "COURIER-FAIL-R1",
        code: "COURIER_REJECTED",
        courier: "sandbox",
        courierName: "Sandbox courier",
        courierProfileId: partner.profileId,
        referenceSource: "shop",
        sourceIdentifier: "cz",
      }),
    ]);
    const detail = await api.refusedAttempts.get({ id: list.items[0]!.id });
    expect(JSON.stringify(detail.request)).toBe(JSON.stringify(sent));
    expect(detail.message).toMatch(/refused/i);

    const results = await api.validationResults.list({ accountId: partner.accountId });
    expect(results.items[0]).toMatchObject({
      referenceNumber: "COURIER-FAIL-R1",
      operation: "create",
      courierName: "Sandbox courier",
      refusal: { refusedAttemptId: detail.id, code: "COURIER_REJECTED", message: detail.message },
    });
    const result = await api.validationResults.get({ id: results.items[0]!.id });
    expect(JSON.stringify(result.requestBody)).toBe(JSON.stringify(sent));
    expect(result.refusal?.code).toBe("COURIER_REJECTED");

    const overview = await api.overview.get({ accountId: partner.accountId });
    expect(overview).toMatchObject({ refusedLast7Days: 1, hasSentOrders: false });

    const stranger = await createPartner();
    const theirs = await callerFor(stranger);
    expect(await codeOf(theirs.refusedAttempts.get({ id: detail.id }))).toBe("NOT_FOUND");
    expect(await codeOf(theirs.refusedAttempts.list({ accountId: partner.accountId }))).toBe("NOT_FOUND");
    expect(await codeOf(theirs.refusedAttempts.list({}))).toBe("BAD_REQUEST");
    expect(await codeOf(theirs.refusedAttempts.get({ id: "nope" }))).toBe("NOT_FOUND");
    expect((await theirs.overview.get({ accountId: stranger.accountId })).refusedLast7Days).toBe(0);
  });

  it("fixes a refused order and creates it from the dashboard through the REST create's rules", async () => {
    const partner = await createPartner();
    await createAsText(partner, JSON.stringify(order({ ReferenceNumber: "COURIER-FAIL-R2" })));
    const api = await callerFor(partner);
    const [refused] = (await api.refusedAttempts.list({ accountId: partner.accountId })).items;
    const fixed = {
      ...((await api.refusedAttempts.get({ id: refused!.id })).request as object),
      ReferenceNumber: "FIXED-R2",
    };

    const created = await api.shippingOrders.create({
      accountId: partner.accountId,
      courierId: "sandbox",
      profileId: refused!.courierProfileId,
      body: fixed,
    });
    expect(created.failed).toEqual([]);
    expect(created.items).toEqual([expect.objectContaining({ referenceNumber: "FIXED-R2", replaced: null })]);
    // The same reference and source pair again replaces it, as through the REST door.
    const again = await api.shippingOrders.create({ accountId: partner.accountId, courierId: "sandbox", body: fixed });
    expect(again.items[0]!.replaced).toBe(created.items[0]!.id);
    expect((await api.overview.get({ accountId: partner.accountId })).hasSentOrders).toBe(true);

    // Duplicate prevention: live under api/default, so another source pair is refused before the courier.
    await activatePair(partner, "shop", "sk");
    expect(
      await codeOf(
        api.shippingOrders.create({
          accountId: partner.accountId,
          courierId: "sandbox",
          body: { ...fixed, ReferenceSource: "shop", SourceIdentifier: "sk" },
        }),
      ),
    ).toBe("CONFLICT");

    // Invalid: nothing created, and the validation answer comes along for the form.
    const invalid = (await api.shippingOrders
      .create({ accountId: partner.accountId, courierId: "sandbox", body: { ...fixed, Parcels: [{ Weight: 0 }] } })
      .catch((e: unknown) => e)) as TRPCError;
    expect(invalid.code).toBe("BAD_REQUEST");

    // Refused again: kept again, attributed to the user.
    const refusedAgain = await api.shippingOrders.create({
      accountId: partner.accountId,
      courierId: "sandbox",
      body: { ...fixed, ReferenceNumber: "COURIER-FAIL-R3" },
    });
    expect(refusedAgain.failed).toEqual([expect.objectContaining({ code: "COURIER_REJECTED" })]);
    expect((await api.refusedAttempts.list({ accountId: partner.accountId })).itemsCount).toBe(2);

    const member = await createTestUser({ accountId: partner.accountId, role: "member" });
    expect(
      await codeOf(
        (await callerFor(member)).shippingOrders.create({
          accountId: partner.accountId,
          courierId: "sandbox",
          body: fixed,
        }),
      ),
    ).toBe("FORBIDDEN");
  });

  it("gives staff the failures of every account and the accounts on a failure streak", async () => {
    const failing = await createPartner();
    for (let i = 0; i < 3; i++)
      await createAsText(failing, JSON.stringify(order({ ReferenceNumber: `COURIER-FAIL-S${i}` })));
    const healthy = await createPartner();
    await createAsText(healthy, JSON.stringify(order({ ReferenceNumber: "COURIER-FAIL-H" })));
    await createAsText(healthy, JSON.stringify(order({ ReferenceNumber: "FINE-H" })));

    const staff = await createTestUser({ staff: true });
    const overview = await (await callerFor(staff, { staff: true })).overview.staff();
    expect(overview.refusalsLast7Days).toBeGreaterThanOrEqual(4);
    expect(overview.recentRefusals.length).toBeGreaterThan(0);
    const streak = overview.failureStreaks.find((s) => s.accountId === failing.accountId);
    expect(streak).toMatchObject({ failures: 3 });
    expect(overview.failureStreaks.some((s) => s.accountId === healthy.accountId)).toBe(false);
    expect(await codeOf((await callerFor(failing)).overview.staff())).toBe("FORBIDDEN");
  });
});

describe("a refused attempt resolved by a later create", () => {
  /** The sandbox refuses an order whose Note says so (a test trigger): the same reference sent without it is created. */
  const refusedOrder = (pair: object) =>
    order({ ReferenceNumber: "R-7", Note: "[courier-fail]", ReferenceSource: "shop", SourceIdentifier: "cz", ...pair });
  const post = (partner: Partner, body: unknown) =>
    as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", { body, params: { courier_id: "sandbox" } });

  it("is shown resolved by the live order of its reference and pair, and no longer counted on the overviews", async () => {
    const partner = await createPartner();
    await activatePair(partner, "shop", "cz");
    const api = await callerFor(partner);
    const staff = await callerFor(await createTestUser({ staff: true }), { staff: true });
    expect((await readJson<{ failed: unknown[] }>(await post(partner, refusedOrder({})))).failed).toHaveLength(1);
    const [open] = (await api.refusedAttempts.list({ accountId: partner.accountId })).items;
    expect(open).toMatchObject({ referenceNumber: "R-7", resolvedByOrderId: null });
    expect((await api.overview.get({ accountId: partner.accountId })).refusedLast7Days).toBe(1);
    const staffBefore = (await staff.overview.staff()).refusalsLast7Days;

    const { Note: _trigger, ...fixed } = refusedOrder({});
    const created = await readJson<{ items: { id: string }[] }>(await post(partner, fixed));
    const orderId = created.items[0]!.id;
    const [resolved] = (await api.refusedAttempts.list({ accountId: partner.accountId })).items;
    expect(resolved).toMatchObject({ id: open!.id, resolvedByOrderId: orderId });
    expect((await api.refusedAttempts.get({ id: open!.id })).resolvedByOrderId).toBe(orderId);
    expect((await api.overview.get({ accountId: partner.accountId })).refusedLast7Days).toBe(0);
    expect((await staff.overview.staff()).refusalsLast7Days).toBe(staffBefore - 1);

    // Created again (a replacement): the new live order resolves it. Deleted: nothing is live, it is open again.
    const again = await readJson<{ items: { id: string }[] }>(await post(partner, fixed));
    const [replaced] = (await api.refusedAttempts.list({ accountId: partner.accountId })).items;
    expect(replaced!.resolvedByOrderId).toBe(again.items[0]!.id);
    await api.shippingOrders.delete({ accountId: partner.accountId, id: again.items[0]!.id });
    expect((await api.refusedAttempts.list({ accountId: partner.accountId })).items[0]!.resolvedByOrderId).toBeNull();
    expect((await api.overview.get({ accountId: partner.accountId })).refusedLast7Days).toBe(1);
  });

  it("stays open when the reference is created under another source pair, or was live before the refusal", async () => {
    const partner = await createPartner();
    await activatePair(partner, "shop", "cz");
    await activatePair(partner, "shop", "sk");
    const api = await callerFor(partner);
    // R-8 live under shop/cz first, then a resend refused: that order predates the refusal and resolves nothing.
    const { Note: _trigger, ...earlier } = refusedOrder({ ReferenceNumber: "R-8" });
    expect((await post(partner, earlier)).ok).toBe(true);
    await post(partner, refusedOrder({ ReferenceNumber: "R-8" }));
    // R-7 refused under shop/cz, then created under shop/sk.
    await post(partner, refusedOrder({}));
    const { Note: _again, ...elsewhere } = refusedOrder({ SourceIdentifier: "sk" });
    expect((await post(partner, elsewhere)).ok).toBe(true);

    const list = await api.refusedAttempts.list({ accountId: partner.accountId });
    expect(list.items.map((r) => [r.referenceNumber, r.resolvedByOrderId])).toEqual([
      ["R-7", null],
      ["R-8", null],
    ]);
    expect((await api.overview.get({ accountId: partner.accountId })).refusedLast7Days).toBe(2);
  });
});

describe("refused attempts' suggested fixes", () => {
  it("carries the messages of its validation that offer suggestions, and nothing else", async () => {
    const partner = await createPartner();
    const answer = await createAsText(partner, JSON.stringify(order({ ReferenceNumber: "COURIER-FAIL-SUGGEST" })));
    expect(answer.failed).toEqual([expect.objectContaining({ code: "COURIER_REJECTED" })]);
    const api = await callerFor(partner);
    const [attempt] = (await api.refusedAttempts.list({ accountId: partner.accountId })).items;
    expect(attempt!.suggestedFixes).toEqual([]);

    // As a rule with suggestions records them (the pickup-point rules do): one well-formed, one not.
    const fix = {
      code: "PICKUP_POINT_CLOSED",
      severity: "WARNING" as const,
      field: "PickupPoint",
      message: "PickupPoint 1 is closed",
      suggestions: [{ value: "2", text: "Point 2, Husova 1, Brno (0.3 km)" }, { value: 3 }],
    };
    const plain = { code: "TOO_LONG", severity: "WARNING" as const, field: "Note", message: "Note is long" };
    await (
      await getDb()
    )
      .update(validationResults)
      .set({ messages: [fix, plain] })
      .where(eq(validationResults.id, attempt!.validationResultId!));
    const [listed] = (await api.refusedAttempts.list({ accountId: partner.accountId })).items;
    const expected = [
      {
        code: "PICKUP_POINT_CLOSED",
        field: "PickupPoint",
        message: "PickupPoint 1 is closed",
        suggestions: [{ value: "2", text: "Point 2, Husova 1, Brno (0.3 km)" }],
      },
    ];
    expect(listed!.suggestedFixes).toEqual(expected);
    expect((await api.refusedAttempts.get({ id: attempt!.id })).suggestedFixes).toEqual(expected);
  });
});
