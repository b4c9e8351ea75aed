import { getDb } from "@/db/client";
import { createApiKey } from "@/server/services/api-keys/create-api-key";
import type { ApiKeyPermission } from "@/lib/api-key-permissions";
import { createCourierProfile } from "@/server/services/courier-profiles/create-courier-profile";
import { activateSource } from "@/server/services/sources/activate-source";
import { call, createTestUser, type CallOptions, type TestUser } from "./helpers";

export type Partner = TestUser & { key: string; keyId: string; profileId: string };

/** A partner with an owner, an API key and a default sandbox profile (the product's courier timeout unless given). */
export async function createPartner(
  options: {
    preventDuplicateOrders?: boolean;
    permissions?: ApiKeyPermission[];
    timeoutMs?: number;
    trackingStepMinutes?: number;
    rateLimitPerMinute?: number;
  } = {},
): Promise<Partner> {
  const user = await createTestUser();
  const db = await getDb();
  const actor = { userId: user.userId, isStaff: false };
  const profile = await createCourierProfile(db, actor, {
    accountId: user.accountId,
    courier: "sandbox",
    name: "Sandbox",
    service: "STANDARD",
    isDefault: true,
    settings: {
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.trackingStepMinutes ? { trackingStepMinutes: options.trackingStepMinutes } : {}),
    },
  });
  const key = await createApiKey(db, actor, {
    accountId: user.accountId,
    name: "test key",
    preventDuplicateOrders: options.preventDuplicateOrders,
    permissions: options.permissions,
    rateLimitPerMinute: options.rateLimitPerMinute,
  });
  return { ...user, key: key.key, keyId: key.id, profileId: profile.id };
}

export async function activatePair(partner: Partner, referenceSource: string, sourceIdentifier: string): Promise<void> {
  await activateSource(
    await getDb(),
    { userId: partner.userId, isStaff: false },
    { accountId: partner.accountId, referenceSource, sourceIdentifier },
  );
}

/** A valid order; override any field. */
export function order(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ReferenceNumber: `ORD-${Math.random().toString(36).slice(2, 10)}`,
    Recipient: {
      Name: "Jana Nováková",
      Street: "Dlouhá 12",
      City: "Praha",
      Zip: "110 00",
      Country: "CZ",
      Email: "jana@example.com",
      Phone: "+420777123456",
    },
    Parcels: [{ Weight: 1.5 }],
    ...overrides,
  };
}

/** Calls a route with the partner's API key. */
export const as =
  (partner: Partner) =>
  (handler: unknown, path: string, options: CallOptions = {}) =>
    call(handler, path, { apiKey: partner.key, ...options });
