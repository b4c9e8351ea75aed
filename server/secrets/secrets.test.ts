import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { rotateWebhookSecret } from "@/server/services/webhooks/rotate-webhook-secret";
import { signingSecrets } from "@/server/services/webhooks/webhook-secret";
import { createTestUser } from "@/test/helpers";
import { keyring, parseSecretsKey, type Keyring } from "./keyring";
import { maskProfileSettings, openProfileSettings, sealProfileSettings, withKeptSecrets } from "./profile-settings";
import { resealStoredSecrets } from "./reseal-stored-secrets";
import { isSealed, needsReseal, openSecret, sealSecret, sealedKeyId } from "./seal-secret";

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

const ringOf = (current: string, previous?: string): Keyring => {
  const c = parseSecretsKey(current);
  const byId = new Map([[c.id, c]]);
  if (previous) {
    const p = parseSecretsKey(previous);
    byId.set(p.id, p);
  }
  return { current: c, byId };
};
const newKey = () => randomBytes(32).toString("base64");

describe("sealing a secret", () => {
  it("round-trips under AES-256-GCM with a fresh IV each time, the key's id beside the value", () => {
    const ring = keyring();
    const a = sealSecret("packeta-api-password", ring);
    const b = sealSecret("packeta-api-password", ring);
    expect(a).toMatch(/^sealed:v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("packeta");
    expect(sealedKeyId(a)).toBe(ring.current.id);
    expect(openSecret(a, ring)).toBe("packeta-api-password");
  });

  it("refuses a tampered value or an unknown key without ever naming the value", () => {
    const ring = keyring();
    const sealed = sealSecret("top-secret-value", ring);
    const payload = Buffer.from(sealed.split(":")[3]!, "base64");
    payload[14] = payload[14]! ^ 1;
    const tampered = `${sealed.split(":").slice(0, 3).join(":")}:${payload.toString("base64")}`;
    expect(() => openSecret(tampered, ring)).toThrow(/cannot be opened/);
    expect(() => openSecret(sealed, ringOf(newKey()))).toThrow(/sealed under key [0-9a-f]{8}/);
    try {
      openSecret(tampered, ring);
    } catch (error) {
      expect(String(error)).not.toContain("top-secret-value");
    }
  });

  it("rotates: the previous key still opens, and what it sealed is marked for resealing under the new one", () => {
    const [oldKey, freshKey] = [newKey(), newKey()];
    const before = sealSecret("ppl-client-secret", ringOf(oldKey));
    const rotated = ringOf(freshKey, oldKey);
    expect(openSecret(before, rotated)).toBe("ppl-client-secret");
    expect(needsReseal(before, rotated)).toBe(true);
    const after = sealSecret(openSecret(before, rotated), rotated);
    expect(needsReseal(after, rotated)).toBe(false);
    expect(openSecret(after, ringOf(freshKey))).toBe("ppl-client-secret");
  });

  it("requires a 32-byte base64 key", () => {
    expect(() => parseSecretsKey("c2hvcnQ=")).toThrow(/32 bytes/);
  });
});

describe("a courier profile's secret settings", () => {
  const fields = ["apiPassword"];
  it("are stored sealed, shown masked, opened for the courier, and kept when a PATCH omits or echoes them", () => {
    const stored = sealProfileSettings({ apiPassword: "abcdef123456", senderLabel: "shop" }, fields);
    expect(isSealed(stored.apiPassword as string)).toBe(true);
    expect(stored.senderLabel).toBe("shop");
    expect(maskProfileSettings(stored, fields)).toEqual({ apiPassword: "****3456", senderLabel: "shop" });
    expect(openProfileSettings(stored)).toEqual({ apiPassword: "abcdef123456", senderLabel: "shop" });
    expect(withKeptSecrets({ senderLabel: "other" }, stored, fields)).toEqual({
      apiPassword: "abcdef123456",
      senderLabel: "other",
    });
    expect(withKeptSecrets({ apiPassword: "****3456" }, stored, fields)).toEqual({ apiPassword: "abcdef123456" });
    expect(withKeptSecrets({ apiPassword: "new-password" }, stored, fields)).toEqual({ apiPassword: "new-password" });
    expect(withKeptSecrets({}, null, fields)).toEqual({});
  });
});

describe("webhook signing secrets at rest", () => {
  it("are stored sealed (no table holds the plain secret), sign with the plain one, and rotate sealed", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const actor = { userId: user.userId, isStaff: false };
    const created = await createWebhookEndpoint(db, actor, { url: "http://127.0.0.1:4012/hooks" });
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(isSealed(row!.secret)).toBe(true);
    expect(signingSecrets(row!, new Date())).toEqual([created.secret]);
    const { secret: next } = await rotateWebhookSecret(db, actor, created.id);
    const [rotated] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(isSealed(rotated!.secret) && isSealed(rotated!.previousSecret!)).toBe(true);
    expect(signingSecrets(rotated!, new Date())).toEqual([next, created.secret]);
    // What a dump would hold: every row of every table of ours, as text.
    const tables = rowsOf<{ t: string }>(
      await db.execute(sql`select tablename as t from pg_tables where schemaname = 'public'`),
    ).map((r) => r.t);
    for (const table of tables) {
      const dump = rowsOf<{ d: string | null }>(
        await db.execute(sql`select string_agg(x::text, ' ') as d from ${sql.identifier(table)} x`),
      )[0]?.d;
      for (const plain of [created.secret, next, created.secret.slice(6), next.slice(6)])
        expect(dump ?? "", `table ${table}`).not.toContain(plain);
    }
  });

  it("stored before sealing (plain text) are sealed by the reseal that runs after migrations", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const created = await createWebhookEndpoint(
      db,
      { userId: user.userId, isStaff: false },
      { url: "http://127.0.0.1:4013/hooks" },
    );
    await db.update(webhookEndpoints).set({ secret: created.secret }).where(eq(webhookEndpoints.id, created.id));
    const count = await resealStoredSecrets(db);
    expect(count.webhookEndpoints).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(isSealed(row!.secret)).toBe(true);
    expect(openSecret(row!.secret)).toBe(created.secret);
    expect((await resealStoredSecrets(db)).webhookEndpoints).toBe(0);
  });
});
