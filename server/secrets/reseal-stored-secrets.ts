import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { courierProfiles, webhookEndpoints } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { keyring } from "./keyring";
import { needsReseal, openSecret, sealSecret } from "./seal-secret";

export type ResealCount = { webhookEndpoints: number; courierProfiles: number };

/**
 * Seals every stored secret under the current key: values stored before sealing existed (plain text), and values
 * sealed under SECRETS_KEY_PREVIOUS (a rotation). Idempotent; run after migrations and by
 * `npm run admin -- secrets:rotate`. A value under a key that is not configured fails loudly (naming the key id).
 */
export async function resealStoredSecrets(db: Executor): Promise<ResealCount> {
  const ring = keyring();
  const count: ResealCount = { webhookEndpoints: 0, courierProfiles: 0 };
  const reseal = (value: string) => (needsReseal(value, ring) ? sealSecret(openSecret(value, ring), ring) : value);

  const endpoints = await db
    .select({
      id: webhookEndpoints.id,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
    })
    .from(webhookEndpoints);
  for (const e of endpoints) {
    const secret = reseal(e.secret);
    const previousSecret = e.previousSecret === null ? null : reseal(e.previousSecret);
    if (secret === e.secret && previousSecret === e.previousSecret) continue;
    await db.update(webhookEndpoints).set({ secret, previousSecret }).where(eq(webhookEndpoints.id, e.id));
    count.webhookEndpoints += 1;
  }

  const profiles = await db
    .select({ id: courierProfiles.id, courier: courierProfiles.courier, settings: courierProfiles.settings })
    .from(courierProfiles);
  for (const p of profiles) {
    const fields = findCourier(p.courier)?.settings.secretFields ?? [];
    const settings = { ...p.settings };
    let changed = false;
    for (const name of fields) {
      const value = settings[name];
      if (typeof value !== "string" || !needsReseal(value, ring)) continue;
      settings[name] = sealSecret(openSecret(value, ring), ring);
      changed = true;
    }
    if (!changed) continue;
    await db.update(courierProfiles).set({ settings }).where(eq(courierProfiles.id, p.id));
    count.courierProfiles += 1;
  }
  return count;
}
