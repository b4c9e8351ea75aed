import { createCipheriv, randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { courierProfiles, webhookEndpoints } from "@/db/schema";
import { courierSettings } from "@/server/services/couriers/call-courier";
import { findCourier } from "@/server/couriers/registry";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { updateCourierProfile } from "@/server/services/courier-profiles/update-courier-profile";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { rotateWebhookSecret } from "@/server/services/webhooks/rotate-webhook-secret";
import { signingSecrets } from "@/server/services/webhooks/webhook-secret";
import { createTestUser } from "@/test/helpers";
import { keyring, parseSecretsKey, type Keyring } from "./keyring";
import { maskProfileSettings, openProfileSettings, sealProfileSettings, withKeptSecrets } from "./profile-settings";
import { resealStoredSecrets } from "./reseal-stored-secrets";
import {
  isSealed,
  needsReseal,
  openSecret,
  sealSecret,
  sealedKeyId,
  SecretUnreadable,
  type SecretBinding,
} from "./seal-secret";
import { webhookSecretBinding } from "./webhook-secret-binding";

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
const here: SecretBinding = {
  table: "courier_profiles",
  rowId: "0190f5c6-0000-7000-8000-000000000001",
  field: "settings.apiPassword",
  accountId: "0190f5c6-0000-7000-8000-0000000000a1",
};

/** A value as the platform sealed it before v2 (`sealed:v1:`, bound to nothing), for the reseal to upgrade. */
function sealV1(plain: string, ring: Keyring = keyring()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `sealed:v1:${ring.current.id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64")}`;
}

describe("sealing a secret", () => {
  it("round-trips under AES-256-GCM with a fresh IV each time, the key's id beside the value", () => {
    const ring = keyring();
    const a = sealSecret("packeta-api-password", here, ring);
    const b = sealSecret("packeta-api-password", here, ring);
    expect(a).toMatch(/^sealed:v2:[0-9a-f]{8}:[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("packeta");
    expect(sealedKeyId(a)).toBe(ring.current.id);
    expect(openSecret(a, here, ring)).toBe("packeta-api-password");
  });

  it("opens only where it was sealed: another row, field, account or table refuses it", () => {
    const ring = keyring();
    const sealed = sealSecret("contract-password", here, ring);
    for (const elsewhere of [
      { ...here, rowId: "0190f5c6-0000-7000-8000-000000000002" },
      { ...here, field: "settings.sender" },
      { ...here, accountId: "0190f5c6-0000-7000-8000-0000000000b2" },
      { ...here, table: "webhook_endpoints" as const },
    ])
      expect(() => openSecret(sealed, elsewhere, ring)).toThrow(SecretUnreadable);
  });

  it("never opens an older form on read: v1 (bound to nothing) or plain text waits for the reseal", () => {
    expect(() => openSecret(sealV1("old-secret"), here)).toThrow(/secrets:rotate/);
    expect(() => openSecret("plain-secret", here)).toThrow(/secrets:rotate/);
    expect(needsReseal(sealV1("old-secret"))).toBe(true);
    expect(needsReseal("plain-secret")).toBe(true);
  });

  it("refuses a tampered value or an unknown key without ever naming the value", () => {
    const ring = keyring();
    const sealed = sealSecret("top-secret-value", here, ring);
    const payload = Buffer.from(sealed.split(":")[3]!, "base64");
    payload[14] = payload[14]! ^ 1;
    const tampered = `${sealed.split(":").slice(0, 3).join(":")}:${payload.toString("base64")}`;
    expect(() => openSecret(tampered, here, ring)).toThrow(/cannot be opened/);
    expect(() => openSecret(sealed, here, ringOf(newKey()))).toThrow(/sealed under key [0-9a-f]{8}/);
    try {
      openSecret(tampered, here, ring);
    } catch (error) {
      expect(String(error)).not.toContain("top-secret-value");
    }
  });

  it("rotates: the previous key still opens, and what it sealed is marked for resealing under the new one", () => {
    const [oldKey, freshKey] = [newKey(), newKey()];
    const before = sealSecret("ppl-client-secret", here, ringOf(oldKey));
    const rotated = ringOf(freshKey, oldKey);
    expect(openSecret(before, here, rotated)).toBe("ppl-client-secret");
    expect(needsReseal(before, rotated)).toBe(true);
    const after = sealSecret(openSecret(before, here, rotated), here, rotated);
    expect(needsReseal(after, rotated)).toBe(false);
    expect(openSecret(after, here, ringOf(freshKey))).toBe("ppl-client-secret");
  });

  it("requires a 32-byte base64 key", () => {
    expect(() => parseSecretsKey("c2hvcnQ=")).toThrow(/32 bytes/);
  });
});

describe("a courier profile's secret settings", () => {
  const fields = ["apiPassword"];
  const profile = { id: here.rowId, accountId: here.accountId };
  it("are stored sealed, shown masked, opened for the courier, and kept when a PATCH omits or echoes them", () => {
    const settings = sealProfileSettings({ apiPassword: "abcdef123456", senderLabel: "shop" }, profile, fields);
    const stored = { ...profile, settings };
    expect(isSealed(settings.apiPassword as string)).toBe(true);
    expect(settings.senderLabel).toBe("shop");
    expect(maskProfileSettings(stored, fields)).toEqual({ apiPassword: "****3456", senderLabel: "shop" });
    expect(openProfileSettings(stored, fields)).toEqual({ apiPassword: "abcdef123456", senderLabel: "shop" });
    expect(withKeptSecrets({ senderLabel: "other" }, stored, fields)).toEqual({
      apiPassword: "abcdef123456",
      senderLabel: "other",
    });
    expect(withKeptSecrets({ apiPassword: "****3456" }, stored, fields)).toEqual({ apiPassword: "abcdef123456" });
    expect(withKeptSecrets({ apiPassword: "new-password" }, stored, fields)).toEqual({ apiPassword: "new-password" });
    expect(withKeptSecrets({}, null, fields)).toEqual({});
  });

  it("sent through the API are always the plain secret, even one that looks sealed", () => {
    const otherProfile = {
      id: "0190f5c6-0000-7000-8000-000000000009",
      accountId: "0190f5c6-0000-7000-8000-0000000000b2",
    };
    const theirs = sealProfileSettings({ apiPassword: "their-contract" }, otherProfile, fields).apiPassword as string;
    const mine = sealProfileSettings({ apiPassword: theirs }, profile, fields);
    expect(mine.apiPassword).not.toBe(theirs);
    expect(openProfileSettings({ ...profile, settings: mine }, fields)).toEqual({ apiPassword: theirs });
  });
});

describe("a ciphertext copied to another row (a database dump, or sent back through the API)", () => {
  const packetaPassword = (tag: string) => `${tag}${"0".repeat(32)}`.slice(0, 32);
  const newPacketaProfile = async (password: string) => {
    const user = await createTestUser();
    const actor = { userId: user.userId, isStaff: false };
    const view = await createCourierProfile(await getDb(), actor, {
      accountId: user.accountId,
      courier: "packeta",
      name: "Packeta",
      settings: { apiPassword: password, sender: "shop" },
    });
    const [row] = await (await getDb()).select().from(courierProfiles).where(eq(courierProfiles.id, view.id));
    return { actor, row: row! };
  };
  const packeta = findCourier("packeta")!;

  it("does not give another tenant's courier contract: copied into its profile it fails to open", async () => {
    const db = await getDb();
    const victim = await newPacketaProfile(packetaPassword("victim"));
    const attacker = await newPacketaProfile(packetaPassword("attacker"));
    expect(courierSettings(packeta, victim.row).apiPassword).toBe(packetaPassword("victim"));
    // With a dump (or write access to the table), the victim's sealed password is put into the attacker's profile.
    await db
      .update(courierProfiles)
      .set({ settings: { ...attacker.row.settings, apiPassword: victim.row.settings.apiPassword } })
      .where(eq(courierProfiles.id, attacker.row.id));
    const [copied] = await db.select().from(courierProfiles).where(eq(courierProfiles.id, attacker.row.id));
    expect(() => courierSettings(packeta, copied!)).toThrow(SecretUnreadable);
  });

  it("sent as a profile's new secret through the API is stored as that text, never as the other tenant's secret", async () => {
    const db = await getDb();
    const ppl = findCourier("ppl")!;
    const newPplProfile = async (secret: string) => {
      const user = await createTestUser();
      const actor = { userId: user.userId, isStaff: false };
      const view = await createCourierProfile(db, actor, {
        accountId: user.accountId,
        courier: "ppl",
        name: "PPL",
        settings: { clientId: "client", clientSecret: secret },
      });
      const [row] = await db.select().from(courierProfiles).where(eq(courierProfiles.id, view.id));
      return { actor, row: row! };
    };
    const victim = await newPplProfile("victim-ppl-contract-secret");
    const attacker = await newPplProfile("attacker-ppl-secret");
    const sealed = victim.row.settings.clientSecret as string;
    await updateCourierProfile(db, attacker.actor, attacker.row.id, {
      settings: { clientId: "client", clientSecret: sealed },
    });
    const [row] = await db.select().from(courierProfiles).where(eq(courierProfiles.id, attacker.row.id));
    expect(row!.settings.clientSecret).not.toBe(sealed);
    expect(courierSettings(ppl, row!).clientSecret).toBe(sealed);
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

  it("copied to another endpoint (another account's) do not sign there", async () => {
    const db = await getDb();
    const endpointOf = async (port: number) => {
      const user = await createTestUser();
      const created = await createWebhookEndpoint(
        db,
        { userId: user.userId, isStaff: false },
        { url: `http://127.0.0.1:${port}/hooks` },
      );
      const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
      return row!;
    };
    const victim = await endpointOf(4014);
    const attacker = await endpointOf(4015);
    await db.update(webhookEndpoints).set({ secret: victim.secret }).where(eq(webhookEndpoints.id, attacker.id));
    const [copied] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, attacker.id));
    expect(() => signingSecrets(copied!, new Date())).toThrow(SecretUnreadable);
  });

  it("stored before sealing (plain text) or sealed as v1 are sealed as v2, for their row, by the reseal", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const actor = { userId: user.userId, isStaff: false };
    const created = await createWebhookEndpoint(db, actor, { url: "http://127.0.0.1:4013/hooks" });
    const { secret: next } = await rotateWebhookSecret(db, actor, created.id);
    await db
      .update(webhookEndpoints)
      .set({ secret: sealV1(next), previousSecret: created.secret })
      .where(eq(webhookEndpoints.id, created.id));
    const profile = await createCourierProfile(db, actor, {
      accountId: user.accountId,
      courier: "ppl",
      name: "PPL",
      settings: { clientId: "client", clientSecret: "old-ppl-secret" },
    });
    const [stored] = await db.select().from(courierProfiles).where(eq(courierProfiles.id, profile.id));
    await db
      .update(courierProfiles)
      .set({ settings: { ...stored!.settings, clientSecret: sealV1("old-ppl-secret") } })
      .where(eq(courierProfiles.id, profile.id));

    const count = await resealStoredSecrets(db);
    expect(count.webhookEndpoints).toBeGreaterThanOrEqual(1);
    expect(count.courierProfiles).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(isSealed(row!.secret) && isSealed(row!.previousSecret!)).toBe(true);
    expect(openSecret(row!.secret, webhookSecretBinding(row!, "secret"))).toBe(next);
    expect(openSecret(row!.previousSecret!, webhookSecretBinding(row!, "previous_secret"))).toBe(created.secret);
    const [resealed] = await db.select().from(courierProfiles).where(eq(courierProfiles.id, profile.id));
    expect(resealed!.settings.clientSecret).toMatch(/^sealed:v2:/);
    expect(courierSettings(findCourier("ppl")!, resealed!).clientSecret).toBe("old-ppl-secret");
    expect(await resealStoredSecrets(db)).toEqual({ webhookEndpoints: 0, courierProfiles: 0 });
  });
});
