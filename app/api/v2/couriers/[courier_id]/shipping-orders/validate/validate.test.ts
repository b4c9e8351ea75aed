import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { validationResults } from "@/db/schema";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { listAccountCourierProfiles } from "@/server/services/courier-profiles/list-courier-profiles";
import { call, createTestUser, readJson } from "@/test/helpers";
import { activatePair, as, createPartner, order, type Partner } from "@/test/partner";
import * as create from "../route";
import * as validate from "./route";

const path = (courier = "sandbox", query = "") => `/api/v2/couriers/${courier}/shipping-orders/validate${query}`;
type Result = {
  status: string;
  referenceNumber: string | null;
  messages: { code: string; severity: string; field: string | null; message: string }[];
};

describe("POST /couriers/{courier}/shipping-orders/validate", () => {
  let partner: Partner;
  let post: ReturnType<typeof as>;
  beforeAll(async () => {
    partner = await createPartner();
    post = as(partner);
  });
  const send = (body: unknown, contentType = "application/svc.shipping-order+json", query = "", courier = "sandbox") =>
    post(validate.POST, path(courier, query), {
      rawBody: JSON.stringify(body),
      headers: { "content-type": contentType },
      params: { courier_id: courier },
    });

  it("works on a new account without ?profile=: every account starts with a default sandbox profile", async () => {
    // The account as the admin CLI (and the seed) create it, with nothing but an API key added.
    const user = await createTestUser();
    const key = await createApiKey(
      await getDb(),
      { userId: user.userId, isStaff: false },
      {
        accountId: user.accountId,
        name: "fresh",
      },
    );
    const fresh = (handler: unknown, url: string) =>
      call(handler, url, {
        apiKey: key.key,
        body: order({ ReferenceNumber: "FRESH-1" }),
        params: { courier_id: "sandbox" },
      });
    const validated = await fresh(validate.POST, path());
    expect(validated.status).toBe(200);
    expect(await readJson(validated)).toMatchObject({ status: "OK" });
    const created = await fresh(create.POST, "/api/v2/couriers/sandbox/shipping-orders");
    expect(created.status).toBe(200);
    const body = await readJson<{ items: { courierProfile: string; service: string }[] }>(created);
    expect(body.items[0]!.service).toBe("STANDARD");
    const profiles = await listAccountCourierProfiles(await getDb(), user.accountId);
    expect(profiles).toEqual([
      expect.objectContaining({ id: body.items[0]!.courierProfile, courier: "sandbox", isDefault: true }),
    ]);
  });

  it("answers 200 with OK for a valid order and 200 with ERROR for an invalid one", async () => {
    const ok = await send(order({ ReferenceNumber: "V-OK" }));
    expect(ok.status).toBe(200);
    expect(await readJson<Result>(ok)).toEqual({ status: "OK", referenceNumber: "V-OK", messages: [] });
    const bad = await send(order({ ReferenceNumber: "V-BAD", Parcels: [{ Weight: 40 }] }));
    expect(bad.status).toBe(200);
    const result = await readJson<Result>(bad);
    expect(result.status).toBe("ERROR");
    expect(result.messages).toEqual([
      expect.objectContaining({ code: "WEIGHT_LIMIT_EXCEEDED", severity: "ERROR", field: "Parcels[0].Weight" }),
    ]);
  });

  it("answers an array in input order for the batch type and for a JSON array", async () => {
    for (const type of ["application/svc.shipping-orders+json", "application/json"]) {
      const response = await send(
        [order({ ReferenceNumber: "B1" }), order({ ReferenceNumber: "B2", Recipient: {} })],
        type,
      );
      expect(response.status).toBe(200);
      const results = await readJson<Result[]>(response);
      expect(results.map((r) => [r.referenceNumber, r.status])).toEqual([
        ["B1", "OK"],
        ["B2", "ERROR"],
      ]);
    }
    const single = await send(order({ ReferenceNumber: "J1" }), "application/json");
    expect(await readJson<Result>(single)).toMatchObject({ referenceNumber: "J1", status: "OK" });
  });

  it("flags DUPLICATE_IN_REQUEST within a batch", async () => {
    const results = await readJson<Result[]>(
      await send(
        [order({ ReferenceNumber: "DUP" }), order({ ReferenceNumber: "DUP" })],
        "application/svc.shipping-orders+json",
      ),
    );
    expect(results[1]!.messages.map((m) => m.code)).toContain("DUPLICATE_IN_REQUEST");
  });

  it("refuses a batch over 500 with a 400 problem, and a wrong shape for the content type", async () => {
    const tooMany = await send(
      Array.from({ length: 501 }, (_, i) => order({ ReferenceNumber: `M${i}` })),
      "application/svc.shipping-orders+json",
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.headers.get("content-type")).toBe("application/problem+json");
    expect((await send(order(), "application/svc.shipping-orders+json")).status).toBe(400);
    expect((await send([order()], "application/svc.shipping-order+json")).status).toBe(400);
  });

  it("answers 404 for an unknown courier or profile, and 415/400/413 for bad bodies", async () => {
    expect((await send(order(), undefined, "", "nope")).status).toBe(404);
    expect((await send(order(), undefined, "?profile=00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await send(order(), undefined, "?profile=not-a-uuid")).status).toBe(404);
    const other = await createPartner();
    expect((await send(order(), undefined, `?profile=${other.profileId}`)).status).toBe(404);
    expect((await send(order(), undefined, `?profile=${partner.profileId}`)).status).toBe(200);
    expect(
      (
        await post(validate.POST, path(), {
          rawBody: "<xml/>",
          headers: { "content-type": "text/xml" },
          params: { courier_id: "sandbox" },
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await post(validate.POST, path(), {
          rawBody: "{",
          headers: { "content-type": "application/json" },
          params: { courier_id: "sandbox" },
        })
      ).status,
    ).toBe(400);
    const huge = JSON.stringify(order({ Note: "x".repeat(1024 * 1024) }));
    expect(
      (
        await post(validate.POST, path(), {
          rawBody: huge,
          headers: { "content-type": "application/json" },
          params: { courier_id: "sandbox" },
        })
      ).status,
    ).toBe(413);
  });

  it("answers 422 for a complete pair that is not activated, before field errors; accepts activated and default pairs", async () => {
    const unknown = await send(order({ ReferenceSource: "shop", SourceIdentifier: "cz", Recipient: {} }));
    expect(unknown.status).toBe(422);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
    await activatePair(partner, "shop", "cz");
    expect(
      await readJson<Result>(await send(order({ ReferenceSource: "shop", SourceIdentifier: "cz" }))),
    ).toMatchObject({ status: "OK" });
    expect((await send(order({ ReferenceSource: "Shop", SourceIdentifier: "cz" }))).status).toBe(422);
    expect(
      await readJson<Result>(await send(order({ ReferenceSource: "api", SourceIdentifier: "default" }))),
    ).toMatchObject({ status: "OK" });
    const incomplete = await readJson<Result>(await send(order({ ReferenceSource: "shop" })));
    expect(incomplete.messages.map((m) => m.code)).toContain("SOURCE_PAIR_INCOMPLETE");
  });

  it("records every validation for review", async () => {
    const p = await createPartner();
    await as(p)(validate.POST, path(), {
      body: [order({ ReferenceNumber: "REC-1" }), order({ ReferenceNumber: "REC-2", Parcels: [] })],
      params: { courier_id: "sandbox" },
    });
    const rows = await (
      await getDb()
    )
      .select()
      .from(validationResults)
      .where(eq(validationResults.accountId, p.accountId));
    expect(rows.map((r) => [r.referenceNumber, r.status, r.operation, r.apiKeyId]).sort()).toEqual([
      ["REC-1", "OK", "validate", p.keyId],
      ["REC-2", "ERROR", "validate", p.keyId],
    ]);
    expect(rows.find((r) => r.referenceNumber === "REC-2")!.requestBody).toMatchObject({ ReferenceNumber: "REC-2" });
  });

  it("needs an active key with the validate permission", async () => {
    const missing = await post(validate.POST, path(), { apiKey: "", body: order(), params: { courier_id: "sandbox" } });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const unknown = await post(validate.POST, path(), {
      apiKey: `svc_${"A".repeat(43)}`,
      body: order(),
      params: { courier_id: "sandbox" },
    });
    expect(unknown.status).toBe(401);
    const readOnly = await createPartner({ permissions: ["shipping-orders:read"] });
    expect(
      (await as(readOnly)(validate.POST, path(), { body: order(), params: { courier_id: "sandbox" } })).status,
    ).toBe(403);
    const bearer = await post(validate.POST, path(), {
      apiKey: "",
      headers: { authorization: `Bearer ${partner.key}` },
      body: order(),
      params: { courier_id: "sandbox" },
    });
    expect(bearer.status).toBe(200);
  });
});
