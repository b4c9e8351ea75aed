/**
 * Tenants, made through the product's own services as test/partner.ts and bench/lib/seed.ts do (a user, its
 * account, a sandbox profile whose tracking moves every few seconds, an API key), and their webhook endpoints,
 * one receiver each. Import only after DATABASE_URL is set (db/client reads it once).
 */
import { getDb } from "@/db/client";
import { createUser } from "@/server/services/accounts/create-user";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { createWebhookEndpoint } from "@/server/services/webhooks/create-webhook-endpoint";
import { PPL_CLIENT_ID, PPL_CLIENT_SECRET, PPL_TIMEOUT_MS } from "./couriers";
import { startReceiver, type Receiver, type ReceiverKind } from "./receivers";

export type Tenant = {
  name: string;
  hostile: boolean;
  /** Takes the faults' large batches only (nemesis.ts `bulkTenant`), no random workload of its own. */
  bulk?: boolean;
  accountId: string;
  userId: string;
  key: string;
  receivers: Receiver[];
  /** The courier its orders go to (default sandbox): `ppl` for the courier tenant (couriers.ts, the fake PPL). */
  courier?: "sandbox" | "ppl";
};

/** A receiver kind and, optionally, the event types its endpoint subscribes to (default: all). */
export type EndpointPlan = { kind: ReceiverKind; eventTypes?: string[] };

export async function createTenant(
  name: string,
  hostile: boolean,
  plans: EndpointPlan[],
  trackingStepMinutes: number,
  courier: "sandbox" | "ppl" = "sandbox",
): Promise<Tenant> {
  const db = await getDb();
  const { userId, accountId } = await createUser(db, {
    email: `${name}-${Date.now()}@invariants.example`,
    password: "invariants-password-1234",
    accountName: `Invariants ${name}`,
  });
  const actor = { userId, isStaff: false };
  if (courier === "ppl")
    await createCourierProfile(db, actor, {
      accountId,
      courier: "ppl",
      name: "PPL",
      isDefault: true,
      settings: { clientId: PPL_CLIENT_ID, clientSecret: PPL_CLIENT_SECRET, timeoutMs: PPL_TIMEOUT_MS },
    });
  else
    await createCourierProfile(db, actor, {
      accountId,
      courier: "sandbox",
      name: "Sandbox",
      service: "STANDARD",
      isDefault: true,
      // Short steps: status_changed events flow during the run (the worker polls due orders at least once a minute).
      settings: { trackingStepMinutes },
    });
  const key = await createApiKey(db, actor, { accountId, name: `invariants ${name}`, rateLimitPerMinute: 100_000 });
  const receivers: Receiver[] = [];
  for (const [i, { kind, eventTypes }] of plans.entries()) {
    const receiver = await startReceiver(`${name}-${kind}-${i + 1}`, kind);
    receiver.eventTypes = eventTypes ?? null;
    const endpoint = await createWebhookEndpoint(db, actor, {
      accountId,
      url: receiver.url,
      description: receiver.label,
      ...(eventTypes ? { eventTypes } : {}),
    });
    receiver.endpointId = endpoint.id;
    receiver.secret = endpoint.secret;
    receivers.push(receiver);
  }
  return { name, hostile, accountId, userId, key: key.key, receivers, courier };
}
