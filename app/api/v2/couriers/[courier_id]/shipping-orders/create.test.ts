import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { shippingOrders, validationResults } from "@/db/schema";
import { readJson } from "@/test/helpers";
import { activatePair, as, createPartner, order, type Partner } from "@/test/partner";
import * as item from "../../../shipping-orders/[id]/route";
import * as list from "../../../shipping-orders/route";
import * as create from "./route";

type Created = {
  items: {
    id: string;
    referenceNumber: string;
    shippingNumber: string[];
    replaced: string | null;
    status: string;
    referenceSource: string;
    sourceIdentifier: string;
    labelUrl: string;
    created: string;
  }[];
  failed: { referenceNumber: string; code: string; message: string }[];
};

const liveOrders = async (accountId: string) =>
  (await getDb())
    .select()
    .from(shippingOrders)
    .where(and(eq(shippingOrders.accountId, accountId), isNull(shippingOrders.deletedAt)));

function poster(partner: Partner) {
  const post = as(partner);
  return (body: unknown, contentType = "application/svc.shipping-order+json", query = "") =>
    post(create.POST, `/api/v2/couriers/sandbox/shipping-orders${query}`, {
      rawBody: JSON.stringify(body),
      headers: { "content-type": contentType },
      params: { courier_id: "sandbox" },
    });
}

describe("POST /couriers/{courier}/shipping-orders", () => {
  let partner: Partner;
  let send: ReturnType<typeof poster>;
  beforeAll(async () => {
    partner = await createPartner();
    send = poster(partner);
  });

  it("creates an order: SBX shipping number per parcel, contract shape, replaced null", async () => {
    const response = await send(
      order({
        ReferenceNumber: "C-1",
        Parcels: [{ Weight: 1 }, { Weight: 2, Length: 30 }],
        CodPrice: 199.9,
        CodCurrency: "czk",
      }),
    );
    expect(response.status).toBe(200);
    const body = await readJson<Created>(response);
    expect(body.failed).toEqual([]);
    const [created] = body.items;
    expect(created).toMatchObject({
      referenceNumber: "C-1",
      status: "CREATED",
      referenceSource: "api",
      sourceIdentifier: "default",
      replaced: null,
      codPrice: 199.9,
      codCurrency: "CZK",
      service: "STANDARD",
      courier: "sandbox",
      courierProfile: partner.profileId,
    });
    expect(created!.shippingNumber).toHaveLength(2);
    for (const n of created!.shippingNumber) expect(n).toMatch(/^SBX\d{10}$/);
    expect(new Set(created!.shippingNumber).size).toBe(2);
    expect(created!.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(created!.labelUrl).toBe(`http://localhost/api/v2/shipping-orders/${created!.id}/label`);
    const got = await as(partner)(item.GET, `/api/v2/shipping-orders/${created!.id}`, { params: { id: created!.id } });
    expect(got.status).toBe(200);
    expect(await readJson(got)).toMatchObject({
      id: created!.id,
      shipmentTracking: { status: "CREATED", events: [expect.objectContaining({ status: "CREATED" })] },
    });
  });

  it("answers each created order exactly as GET reads it back, parcels rounded as stored", async () => {
    const response = await send(
      [
        order({
          ReferenceNumber: "ROUND-1",
          Parcels: [{ Weight: 1.23456 }, { Weight: 2, Length: 30.5, Width: 20, Height: 10.25, Reference: "B" }],
          CodPrice: 10,
          CodCurrency: "EUR",
          Note: 'a "quoted" note \\ with a backslash',
        }),
        order({ ReferenceNumber: "ROUND-2", Parcels: [{ Weight: 0.0005 }, { Weight: 3 }, { Weight: 4 }] }),
      ],
      "application/svc.shipping-orders+json",
    );
    expect(response.status).toBe(200);
    const { items } = await readJson<Created>(response);
    expect(items.map((i) => i.referenceNumber)).toEqual(["ROUND-1", "ROUND-2"]);
    for (const { replaced, ...created } of items) {
      expect(replaced).toBeNull();
      const got = await as(partner)(item.GET, `/api/v2/shipping-orders/${created.id}`, { params: { id: created.id } });
      expect(await readJson(got)).toEqual(created);
    }
    expect((items[0] as unknown as { parcels: { weight: number }[] }).parcels[0]!.weight).toBe(1.235);
  });

  it("returns the data that was sent, in the create answer, GET and the list; null where it was not sent", async () => {
    const full = order({
      ReferenceNumber: "FULL-1",
      ExternalReference: "INV-42",
      Service: "PICKUP_POINT",
      PickupPoint: "PP-PRAHA-7",
      Recipient: {
        Name: "Jana Nováková",
        Company: "Nováková s.r.o.",
        Street: "Dlouhá 12",
        City: "Praha",
        Zip: "110 00",
        Country: "cz",
        Email: "jana@example.com",
        Phone: "+420 777 123 456",
      },
      Parcels: [{ Weight: 1.25, Length: 30, Width: 20.5, Height: 10, Reference: "BOX-A" }],
      CodPrice: 499.9,
      CodCurrency: "CZK",
      VariableSymbol: "20260042",
      InsurancePrice: 1500,
      Note: "Ring twice",
    });
    const expected = {
      referenceNumber: "FULL-1",
      externalReference: "INV-42",
      service: "PICKUP_POINT",
      pickupPoint: "PP-PRAHA-7",
      codPrice: 499.9,
      codCurrency: "CZK",
      variableSymbol: "20260042",
      insurancePrice: 1500,
      note: "Ring twice",
      recipient: {
        name: "Jana Nováková",
        company: "Nováková s.r.o.",
        street: "Dlouhá 12",
        city: "Praha",
        zip: "110 00",
        country: "CZ",
        email: "jana@example.com",
        phone: "+420777123456",
      },
      parcels: [
        { weight: 1.25, length: 30, width: 20.5, height: 10, reference: "BOX-A", shippingNumber: expect.any(String) },
      ],
    };
    const created = (await readJson<Created>(await send(full))).items[0]!;
    expect(created).toMatchObject(expected);
    const got = await as(partner)(item.GET, `/api/v2/shipping-orders/${created.id}`, { params: { id: created.id } });
    expect(await readJson(got)).toMatchObject(expected);
    const listed = await as(partner)(list.GET, `/api/v2/shipping-orders?ids=${created.id}`);
    expect((await readJson<{ items: unknown[] }>(listed)).items[0]).toMatchObject(expected);

    const bare = order({
      ReferenceNumber: "BARE-1",
      Recipient: { ...(full.Recipient as object), Company: null, Email: null, Phone: "+420777123456" },
      Parcels: [{ Weight: 1, Length: null }],
      CodPrice: null,
      InsurancePrice: null,
    });
    const minimal = (await readJson<Created>(await send(bare))).items[0]!;
    expect(minimal).toMatchObject({
      externalReference: null,
      pickupPoint: null,
      codPrice: null,
      codCurrency: null,
      variableSymbol: null,
      insurancePrice: null,
      note: null,
      recipient: { company: null, email: null },
      parcels: [{ weight: 1, length: null, width: null, height: null, reference: null }],
    });
  });

  it("answers 400 with the validation response and creates nothing of the batch when any order is invalid", async () => {
    const p = await createPartner();
    const response = await poster(p)(
      [order({ ReferenceNumber: "A-OK" }), order({ ReferenceNumber: "A-BAD", Parcels: [{ Weight: -1 }] })],
      "application/svc.shipping-orders+json",
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = await readJson<{ status: string; referenceNumber: string }[]>(response);
    expect(body.map((b) => [b.referenceNumber, b.status])).toEqual([
      ["A-OK", "OK"],
      ["A-BAD", "ERROR"],
    ]);
    expect(await liveOrders(p.accountId)).toEqual([]);
    const single = await poster(p)(order({ ReferenceNumber: "S-BAD", Recipient: {} }));
    expect(single.status).toBe(400);
    expect(await readJson(single)).toMatchObject({ status: "ERROR", referenceNumber: "S-BAD" });
    const recorded = await (
      await getDb()
    )
      .select()
      .from(validationResults)
      .where(eq(validationResults.accountId, p.accountId));
    expect(recorded.filter((r) => r.operation === "create")).toHaveLength(3);
  });

  it("records each order's validation once on every way out: stored, refused by the courier, 409, invalid", async () => {
    const p = await createPartner({ preventDuplicateOrders: true });
    const send = poster(p);
    await activatePair(p, "eshop", "one");
    const recorded = async () =>
      (await getDb())
        .select({ ref: validationResults.referenceNumber, status: validationResults.status })
        .from(validationResults)
        .where(and(eq(validationResults.accountId, p.accountId), eq(validationResults.operation, "create")));
    expect((await send(order({ ReferenceNumber: "REC-1" }))).status).toBe(200);
    expect(await recorded()).toEqual([{ ref: "REC-1", status: "OK" }]);
    const refused = await send(order({ ReferenceNumber: "COURIER-FAIL-REC" }));
    expect((await readJson<Created>(refused)).failed).toHaveLength(1);
    expect((await recorded()).map((r) => r.ref).sort()).toEqual(["COURIER-FAIL-REC", "REC-1"]);
    const clash = await send(order({ ReferenceNumber: "REC-1", ReferenceSource: "eshop", SourceIdentifier: "one" }));
    expect(clash.status).toBe(409);
    expect(await liveOrders(p.accountId)).toHaveLength(1);
    expect((await send(order({ ReferenceNumber: "REC-BAD", Parcels: [] }))).status).toBe(400);
    expect((await recorded()).map((r) => r.ref).sort()).toEqual(["COURIER-FAIL-REC", "REC-1", "REC-1", "REC-BAD"]);
  });

  it("checks in the contract's order: 422 before 400, 400 before 409", async () => {
    const p = await createPartner({ preventDuplicateOrders: true });
    const send = poster(p);
    const unknownPairAndInvalid = await send(order({ ReferenceSource: "nope", SourceIdentifier: "x", Parcels: [] }));
    expect(unknownPairAndInvalid.status).toBe(422);
    await activatePair(p, "shop", "eu");
    expect((await send(order({ ReferenceNumber: "ORDER-9" }))).status).toBe(200);
    const duplicateAndInvalid = await send(
      order({ ReferenceNumber: "ORDER-9", ReferenceSource: "shop", SourceIdentifier: "eu", Parcels: [] }),
    );
    expect(duplicateAndInvalid.status).toBe(400);
    const duplicate = await send(
      order({ ReferenceNumber: "ORDER-9", ReferenceSource: "shop", SourceIdentifier: "eu" }),
    );
    expect(duplicate.status).toBe(409);
    const problem = await readJson<{ detail: string; errors: { field: string }[] }>(duplicate);
    expect(problem.detail).toContain("ORDER-9");
    expect(problem.errors[0]!.field).toBe("ReferenceNumber");
    expect(await liveOrders(p.accountId)).toHaveLength(1);
  });

  it("duplicate prevention also refuses a batch naming one reference under two pairs, and is off by default", async () => {
    const p = await createPartner({ preventDuplicateOrders: true });
    await activatePair(p, "shop", "eu");
    const batch = [
      order({ ReferenceNumber: "X-1" }),
      order({ ReferenceNumber: "X-1", ReferenceSource: "shop", SourceIdentifier: "eu" }),
    ];
    expect((await poster(p)(batch, "application/svc.shipping-orders+json")).status).toBe(409);
    expect(await liveOrders(p.accountId)).toEqual([]);
    const lenient = await createPartner();
    await activatePair(lenient, "shop", "eu");
    const response = await poster(lenient)(batch, "application/svc.shipping-orders+json");
    expect(response.status).toBe(200);
    expect((await readJson<Created>(response)).items).toHaveLength(2);
  });

  it("replaces an order with the same reference and pair; the predecessor answers 404", async () => {
    const first = (await readJson<Created>(await send(order({ ReferenceNumber: "R-1" })))).items[0]!;
    const second = (await readJson<Created>(await send(order({ ReferenceNumber: "R-1" })))).items[0]!;
    expect(second.replaced).toBe(first.id);
    expect(second.id).not.toBe(first.id);
    expect(
      (await as(partner)(item.GET, `/api/v2/shipping-orders/${first.id}`, { params: { id: first.id } })).status,
    ).toBe(404);
    const live = (await liveOrders(partner.accountId)).filter((o) => o.referenceNumber === "R-1");
    expect(live.map((o) => o.id)).toEqual([second.id]);
  });

  it("keeps the predecessor when the courier refuses the successor, and reports it in failed", async () => {
    const first = (await readJson<Created>(await send(order({ ReferenceNumber: "KEEP-1" })))).items[0]!;
    const refused = await readJson<Created>(
      await send(order({ ReferenceNumber: "KEEP-1", Note: "please [courier-fail]" })),
    );
    expect(refused.items).toEqual([]);
    expect(refused.failed).toEqual([
      { referenceNumber: "KEEP-1", code: "COURIER_REJECTED", message: expect.any(String) },
    ]);
    expect(
      (await as(partner)(item.GET, `/api/v2/shipping-orders/${first.id}`, { params: { id: first.id } })).status,
    ).toBe(200);
  });

  it("reports courier refusals and timeouts in failed and creates the rest", async () => {
    // Long enough for the orders that answer on a loaded machine; only those that never answer wait it out.
    const p = await createPartner({ timeoutMs: 3_000 });
    const response = await poster(p)(
      [
        order({ ReferenceNumber: "FINE-1" }),
        order({ ReferenceNumber: "COURIER-FAIL-1" }),
        order({ ReferenceNumber: "COURIER-TIMEOUT-1" }),
        order({ ReferenceNumber: "N-1", Note: "[courier-timeout]" }),
      ],
      "application/svc.shipping-orders+json",
    );
    expect(response.status).toBe(200);
    const body = await readJson<Created>(response);
    expect(body.items.map((i) => i.referenceNumber)).toEqual(["FINE-1"]);
    expect(body.failed.map((f) => [f.referenceNumber, f.code])).toEqual([
      ["COURIER-FAIL-1", "COURIER_REJECTED"],
      ["COURIER-TIMEOUT-1", "COURIER_TIMEOUT"],
      ["N-1", "COURIER_TIMEOUT"],
    ]);
    expect((await liveOrders(p.accountId)).map((o) => o.referenceNumber)).toEqual(["FINE-1"]);
  });

  it("leaves exactly one live order after 20 concurrent creates of one reference, all answering 200", async () => {
    const p = await createPartner();
    const send = poster(p);
    const responses = await Promise.all(Array.from({ length: 20 }, () => send(order({ ReferenceNumber: "RACE-1" }))));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(responses.map((r) => readJson<Created>(r)));
    const ids = bodies.map((b) => b.items[0]!.id);
    const live = await liveOrders(p.accountId);
    expect(live).toHaveLength(1);
    expect(ids).toContain(live[0]!.id);
    expect(bodies.filter((b) => b.items[0]!.replaced === null)).toHaveLength(1);
  });

  it("creates 500 orders in one batch with unique shipping numbers", async () => {
    const p = await createPartner();
    const batch = Array.from({ length: 500 }, (_, i) => order({ ReferenceNumber: `BULK-${i}` }));
    const response = await poster(p)(batch, "application/svc.shipping-orders+json");
    expect(response.status).toBe(200);
    const body = await readJson<Created>(response);
    expect(body.items).toHaveLength(500);
    expect(body.items.map((i) => i.referenceNumber)).toEqual(batch.map((b) => b.ReferenceNumber));
    expect(new Set(body.items.flatMap((i) => i.shippingNumber)).size).toBe(500);
  });

  it("answers 404 for an unknown courier and 403 without the write permission", async () => {
    const post = as(partner);
    expect(
      (
        await post(create.POST, "/api/v2/couriers/acme/shipping-orders", {
          body: order(),
          params: { courier_id: "acme" },
        })
      ).status,
    ).toBe(404);
    const readOnly = await createPartner({ permissions: ["shipping-orders:read", "shipping-orders:validate"] });
    expect((await poster(readOnly)(order())).status).toBe(403);
    expect(await liveOrders(readOnly.accountId)).toEqual([]);
  });
});
