import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as token from "@/app/api/v2/auth/token/route";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import * as labels from "@/app/api/v2/labels/route";
import * as apiKeys from "@/app/api/v2/private/api-keys/route";
import * as list from "@/app/api/v2/shipping-orders/route";
import { getDb } from "@/db/client";
import { shippingOrders, validationResults } from "@/db/schema";
import { accountDigest } from "@/test/account-digest";
import { expectProblem } from "@/test/expect-answers";
import { call, readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";

/**
 * The counterexamples the fuzz suites found, kept as plain examples so each stays fixed whatever the random
 * seed: every one of them answered 500 before its fix.
 */

describe("fuzz findings", () => {
  let partner: Partner;
  const send = (handler: unknown, path: string, raw: string, contentType = "application/json") =>
    as(partner)(handler, path, {
      method: "POST",
      rawBody: raw,
      headers: { "content-type": contentType },
      params: { courier_id: "sandbox" },
    });
  beforeAll(async () => {
    partner = await createPartner();
  });

  it("a body of null (or a batch holding null) is an invalid order, recorded as such, not a 500", async () => {
    const validated = await send(
      validate.POST,
      "/api/v2/couriers/sandbox/shipping-orders/validate",
      "null",
      "application/svc.shipping-order+json",
    );
    expect(validated.status).toBe(200);
    expect(await readJson(validated)).toMatchObject({ status: "ERROR", referenceNumber: null });
    const created = await send(create.POST, "/api/v2/couriers/sandbox/shipping-orders", "[null]");
    expect(created.status).toBe(400);
    expect(await readJson(created)).toMatchObject([{ status: "ERROR" }]);
    const recorded = await (
      await getDb()
    )
      .select()
      .from(validationResults)
      .where(eq(validationResults.accountId, partner.accountId));
    expect(recorded.map((r) => r.requestBody)).toEqual([null, null]);
  });

  it.each([
    ["U+0000 in a field", { ...order(), ReferenceNumber: "A\u0000B" }, "ReferenceNumber"],
    ["U+0000 in an unknown field's name", { ...order(), "a\u0000b": "" }, "a\u0000b"],
    [
      "an unpaired surrogate in a nested field",
      order({ Recipient: { ...(order().Recipient as object), Name: "x\ud800y" } }),
      "Recipient.Name",
    ],
    ["an unpaired surrogate in a batch", [order(), order({ Note: "\udfff" })], "[1].Note"],
  ])("%s: 400 problem naming the field, nothing stored", async (_, body, field) => {
    const before = await accountDigest(partner.accountId);
    for (const [handler, path] of [
      [validate.POST, "/api/v2/couriers/sandbox/shipping-orders/validate"],
      [create.POST, "/api/v2/couriers/sandbox/shipping-orders"],
    ] as const) {
      const response = await send(handler, path, JSON.stringify(body));
      const problem = await expectProblem(response, path);
      expect(response.status).toBe(400);
      expect(problem.errors?.map((e) => e.field)).toEqual([field]);
    }
    expect(await accountDigest(partner.accountId)).toEqual(before);
  });

  it.each([
    [
      "a parcel length that rounds past numeric(8,2)",
      order({ Parcels: [{ Weight: 1, Length: 999_999.995 }] }),
      "Parcels[0].Length",
    ],
    ["a parcel height of 1e21", order({ Parcels: [{ Weight: 1 }, { Weight: 1, Height: 1e21 }] }), "Parcels[1].Height"],
    ["a COD price past numeric(12,2)", order({ CodPrice: 1e15, CodCurrency: "CZK" }), "CodPrice"],
    ["an insurance price of 1e308", order({ InsurancePrice: 1e308 }), "InsurancePrice"],
  ])("%s: 400 validation error OUT_OF_RANGE, nothing stored", async (_, body, field) => {
    const before = await accountDigest(partner.accountId);
    const response = await send(create.POST, "/api/v2/couriers/sandbox/shipping-orders", JSON.stringify(body));
    expect(response.status).toBe(400);
    const result = await readJson<{ status: string; messages: { code: string; field: string }[] }>(response);
    expect(result.status).toBe("ERROR");
    expect(result.messages).toContainEqual(expect.objectContaining({ code: "OUT_OF_RANGE", field }));
    expect(await accountDigest(partner.accountId)).toEqual(before);
  });

  it("the largest dimensions and prices the columns hold are still accepted", async () => {
    const body = order({
      ReferenceNumber: "MAX-1",
      Parcels: [{ Weight: 1, Length: 999_999.99, Width: 999_999.99, Height: 0.01 }],
      CodPrice: 9_999_999_999.99,
      CodCurrency: "CZK",
      InsurancePrice: 9_999_999_999.99,
    });
    const response = await send(create.POST, "/api/v2/couriers/sandbox/shipping-orders", JSON.stringify(body));
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({
      items: [{ codPrice: 9_999_999_999.99, parcels: [{ length: 999_999.99, width: 999_999.99, height: 0.01 }] }],
    });
  });

  it("a body nested 100,000 levels deep: 400 problem, not a stack overflow", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    for (const path of [
      "/api/v2/couriers/sandbox/shipping-orders/validate",
      "/api/v2/couriers/sandbox/shipping-orders",
    ]) {
      const response = await send(path.endsWith("validate") ? validate.POST : create.POST, path, deep);
      expect(response.status).toBe(400);
      expect((await expectProblem(response, path)).errors).toEqual([
        { field: "body", message: expect.stringContaining("nested") },
      ]);
    }
    // Ordinary nesting in an unknown field is still fine.
    const nested = {
      ...order({ ReferenceNumber: "NESTED-OK" }),
      Extra: JSON.parse(`${"[".repeat(40)}1${"]".repeat(40)}`) as unknown,
    };
    expect((await send(create.POST, "/api/v2/couriers/sandbox/shipping-orders", JSON.stringify(nested))).status).toBe(
      200,
    );
  });

  it("U+0000 on the private API and sign-in: 400 problem naming the field", async () => {
    const key = await call(apiKeys.POST, "/api/v2/private/api-keys", {
      token: partner.token,
      body: { name: "key\u0000" },
    });
    expect((await expectProblem(key, "api-keys")).errors?.[0]?.field).toBe("name");
    const signIn = await call(token.POST, "/api/v2/auth/token", {
      body: { email: "x\u0000@test.example", password: "whatever" },
    });
    expect((await expectProblem(signIn, "token")).errors?.[0]?.field).toBe("email");
  });

  it.each([
    ["/api/v2/shipping-orders?referenceNumbers=A%00", list.GET, "referenceNumbers"],
    ["/api/v2/shipping-orders?shippingNumbers=SBX%00", list.GET, "shippingNumbers"],
    ["/api/v2/labels?shippingNumbers=%00", labels.GET, "shippingNumbers"],
  ])("%s: 400 problem naming the parameter", async (path, handler, field) => {
    const response = await as(partner)(handler, path);
    expect(response.status).toBe(400);
    expect((await expectProblem(response, path)).errors).toEqual([{ field, message: expect.any(String) }]);
  });

  it("date bounds at the ends of the calendar: year 9999 answers, year 0 is refused, year 50 is not 1950", async () => {
    const p = await createPartner();
    const made = await as(p)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: order({ ReferenceNumber: "OLD-1" }),
      params: { courier_id: "sandbox" },
    });
    const id = (await readJson<{ items: { id: string }[] }>(made)).items[0]!.id;
    await (
      await getDb()
    )
      .update(shippingOrders)
      .set({ createdAt: new Date(Date.UTC(1950, 5, 1)) })
      .where(eq(shippingOrders.id, id));
    const ids = async (query: string) => {
      const response = await as(p)(list.GET, `/api/v2/shipping-orders?${query}`);
      expect(response.status, query).toBe(200);
      return (await readJson<{ items: { id: string }[] }>(response)).items.map((o) => o.id);
    };
    expect(await ids("createdTo=9999-12-31T23:59:59.999")).toEqual([id]);
    expect(await ids("createdTo=9999-12-31")).toEqual([id]);
    expect(await ids("createdFrom=0050-01-01&createdTo=0050-12-31")).toEqual([]);
    expect(await ids("createdFrom=0001-01-01&createdTo=1950-06-01")).toEqual([id]);
    const yearZero = await as(p)(list.GET, "/api/v2/shipping-orders?createdFrom=0000-01-01");
    expect(yearZero.status).toBe(400);
    expect((await expectProblem(yearZero, "year 0")).errors?.[0]?.field).toBe("createdFrom");
  });
});
