import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { hashApiKey, looksLikeApiKey } from "@/server/auth/api-key-secret";
import type { ApiKeyPermission } from "./schemas";

/** What a verified API key lets a request do. */
export type ApiKeyPrincipal = {
  keyId: string;
  accountId: string;
  permissions: readonly ApiKeyPermission[];
  preventDuplicateOrders: boolean;
  rateLimitPerMinute: number;
};

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The principal of an active key, or null for an unknown or revoked one. One indexed lookup by hash;
 * revocation is read on every call, so it takes effect on the next request. `last_used_at` is written at
 * most once a minute per key (the conditional UPDATE makes concurrent requests write it once).
 */
export async function verifyApiKey(db: Executor, key: string, now = new Date()): Promise<ApiKeyPrincipal | null> {
  if (!looksLikeApiKey(key)) return null;
  const [row] = await db
    .select({
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      permissions: apiKeys.permissions,
      preventDuplicateOrders: apiKeys.preventDuplicateOrders,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(apiKeys.id, row.id),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`)),
        ),
      );
  }
  return {
    keyId: row.id,
    accountId: row.accountId,
    permissions: row.permissions as ApiKeyPermission[],
    preventDuplicateOrders: row.preventDuplicateOrders,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}
