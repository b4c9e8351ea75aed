import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { courierProfiles, webhookEndpoints } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { keyring } from "./keyring";
import { profileSecretBinding } from "./profile-settings";
import { needsReseal, openStoredSecret, sealSecret, type SecretBinding } from "./seal-secret";
import { webhookSecretBinding } from "./webhook-secret-binding";

export type ResealCount = { webhookEndpoints: number; courierProfiles: number };

/**
 * Seals every stored secret as v2 under the current key, bound to its row, field and account: values stored before
 * sealing existed (plain text), values sealed as v1 (bound to nothing) and values sealed under SECRETS_KEY_PREVIOUS
 * (a rotation). Idempotent; run after migrations and by `npm run admin -- secrets:rotate`. A value under a key that
 * is not configured, or a v2 value that is not this row's (copied from another), fails loudly (naming the key id).
 */
export async function resealStoredSecrets(db: Executor): Promise<ResealCount> {
  const ring = keyring();
  const count: ResealCount = { webhookEndpoints: 0, courierProfiles: 0 };
  const reseal = (value: string, binding: SecretBinding) =>
    needsReseal(value, ring) ? sealSecret(openStoredSecret(value, binding, ring), binding, ring) : value;

  const endpoints = await db
    .select({
      id: webhookEndpoints.id,
      accountId: webhookEndpoints.accountId,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
    })
    .from(webhookEndpoints);
  for (const e of endpoints) {
    const secret = reseal(e.secret, webhookSecretBinding(e, "secret"));
    const previousSecret =
      e.previousSecret === null ? null : reseal(e.previousSecret, webhookSecretBinding(e, "previous_secret"));
    if (secret === e.secret && previousSecret === e.previousSecret) continue;
    await db.update(webhookEndpoints).set({ secret, previousSecret }).where(eq(webhookEndpoints.id, e.id));
    count.webhookEndpoints += 1;
  }

  const profiles = await db
    .select({
      id: courierProfiles.id,
      accountId: courierProfiles.accountId,
      courier: courierProfiles.courier,
      settings: courierProfiles.settings,
    })
    .from(courierProfiles);
  for (const p of profiles) {
    const fields = findCourier(p.courier)?.settings.secretFields ?? [];
    const settings = { ...p.settings };
    let changed = false;
    for (const name of fields) {
      const value = settings[name];
      if (typeof value !== "string" || !needsReseal(value, ring)) continue;
      settings[name] = reseal(value, profileSecretBinding(p, name));
      changed = true;
    }
    if (!changed) continue;
    await db.update(courierProfiles).set({ settings }).where(eq(courierProfiles.id, p.id));
    count.courierProfiles += 1;
  }
  return count;
}
