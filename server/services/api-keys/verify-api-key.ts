import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { queryRows, type Db, type Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { hashApiKey, looksLikeApiKey } from "@/server/auth/api-key-secret";
import { bucketState, type RateLimitState } from "@/server/services/rate-limits/take-tokens";
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

/**
 * verifyApiKey and takeTokens (subject `key:<id>`, the key's own limit) in one statement, one round trip:
 * what every key-protected request does first. Null for an unknown or revoked key (no bucket is touched).
 * Written once as text (db/client `queryRows`): this runs on every API request.
 */
export async function verifyApiKeyTakingToken(
  db: Db,
  key: string,
): Promise<{ principal: ApiKeyPrincipal; rateLimit: RateLimitState } | null> {
  if (!looksLikeApiKey(key)) return null;
  const [row] = await queryRows<{
    id: string;
    account_id: string;
    permissions: ApiKeyPermission[];
    prevent_duplicate_orders: boolean;
    rate_limit_per_minute: number;
    tokens: number;
    allowed: boolean;
  }>(db, VERIFY_AND_TAKE_TOKEN, [hashApiKey(key), new Date().toISOString()]);
  if (!row) return null;
  const principal: ApiKeyPrincipal = {
    keyId: row.id,
    accountId: row.account_id,
    permissions: row.permissions,
    preventDuplicateOrders: row.prevent_duplicate_orders,
    rateLimitPerMinute: row.rate_limit_per_minute,
  };
  return { principal, rateLimit: bucketState(Number(row.tokens), row.allowed, row.rate_limit_per_minute, 1) };
}

// The same refill rule as takeTokens (a bucket of `limit` tokens refilling at `limit` a minute by the app's clock, $2;
// a refused request takes nothing), with the limit read from the key row; last_used_at as in verifyApiKey (at most
// once a minute, by the database's clock as there).
const VERIFY_AND_TAKE_TOKEN = `
with k as (
  select id, account_id, permissions, prevent_duplicate_orders, rate_limit_per_minute,
         rate_limit_per_minute::float8 as lim
  from api_keys where key_hash = $1 and revoked_at is null limit 1
), used as (
  update api_keys set last_used_at = now()
  where id = (select id from k) and (last_used_at is null or last_used_at < now() - interval '1 minute')
), bucket as (
  insert into rate_limit_buckets as b (subject, tokens, allowed, updated_at)
  select 'key:' || k.id, k.lim - 1, true, $2::timestamptz from k
  on conflict (subject) do update set
    tokens = (select case when r.v >= 1 then r.v - 1 else r.v end from (
      select least(k.lim, b.tokens + greatest(0::float8, extract(epoch from ($2::timestamptz - b.updated_at))::float8) * (k.lim / 60)) as v
      from k) r),
    allowed = (select least(k.lim, b.tokens + greatest(0::float8, extract(epoch from ($2::timestamptz - b.updated_at))::float8) * (k.lim / 60)) >= 1
      from k),
    updated_at = greatest(b.updated_at, $2::timestamptz)
  returning subject, tokens, allowed
)
select k.id, k.account_id, k.permissions, k.prevent_duplicate_orders, k.rate_limit_per_minute, bucket.tokens, bucket.allowed
from k join bucket on bucket.subject = 'key:' || k.id`;
