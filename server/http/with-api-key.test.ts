import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { revokeApiKey } from "@/server/services/api-keys/revoke-api-key";
import { verifyApiKey } from "@/server/services/api-keys/verify-api-key";
import { as, createPartner } from "@/test/partner";
import { statementsDuring } from "@/test/statements";
import * as couriers from "@/app/api/v2/couriers/route";

describe("API-key authentication", () => {
  it("refuses a revoked key on the very next request", async () => {
    const partner = await createPartner();
    expect((await as(partner)(couriers.GET, "/api/v2/couriers")).status).toBe(200);
    await revokeApiKey(await getDb(), { userId: partner.userId, isStaff: false }, partner.keyId);
    const response = await as(partner)(couriers.GET, "/api/v2/couriers");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("writes lastUsed at most once a minute", async () => {
    const partner = await createPartner();
    const db = await getDb();
    const lastUsed = async () =>
      (await db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, partner.keyId)))[0]!.at;
    expect(await lastUsed()).toBeNull();
    await verifyApiKey(db, partner.key);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await verifyApiKey(db, partner.key);
    expect(await lastUsed()).toEqual(first);
    const stale = new Date(first!.getTime() - 61_000);
    await db.update(apiKeys).set({ lastUsedAt: stale }).where(eq(apiKeys.id, partner.keyId));
    await verifyApiKey(db, partner.key);
    expect((await lastUsed())!.getTime()).toBeGreaterThanOrEqual(first!.getTime());
  });

  it("accepts X-API-Key and Authorization: Bearer, refuses garbage", async () => {
    const partner = await createPartner();
    expect(
      (
        await as(partner)(couriers.GET, "/api/v2/couriers", {
          apiKey: "",
          headers: { authorization: `Bearer ${partner.key}` },
        })
      ).status,
    ).toBe(200);
    expect((await as(partner)(couriers.GET, "/api/v2/couriers", { apiKey: "nonsense" })).status).toBe(401);
  });

  it("verifies a secret key and takes its key's and account's tokens in one statement", async () => {
    const partner = await createPartner();
    const statements = await statementsDuring(() => as(partner)(couriers.GET, "/api/v2/couriers"));
    const authentication = statements.filter((text) => /api_keys|rate_limit_buckets/.test(text));
    expect(authentication).toHaveLength(1);
    expect(authentication[0]).toMatch(/rate_limit_buckets[\s\S]*'account:'/);
  });
});
