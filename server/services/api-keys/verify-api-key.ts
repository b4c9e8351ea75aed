import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { queryRows, type Db, type Executor } from "@/db/client";
import { apiKeys, type ApiKeyKind } from "@/db/schema";
import { hashApiKey, looksLikeApiKey } from "@/server/auth/api-key-secret";
import { bucketState, giveBackTokens, tightest, type RateLimitState } from "@/server/services/rate-limits/take-tokens";
import type { ApiKeyPermission } from "@/lib/api-key-permissions";

/** What a verified API key lets a request do. */
export type ApiKeyPrincipal = {
  keyId: string;
  accountId: string;
  permissions: readonly ApiKeyPermission[];
  preventDuplicateOrders: boolean;
  rateLimitPerMinute: number;
  /** A publishable key may only call the routes that take one, and only from `allowedOrigins`. */
  kind: ApiKeyKind;
  allowedOrigins: readonly string[];
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
      kind: apiKeys.kind,
      allowedOrigins: apiKeys.allowedOrigins,
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
    kind: row.kind,
    allowedOrigins: row.allowedOrigins,
  };
}

/** The rate-limit bucket all of an account's keys draw on together (ACCOUNT_RATE_LIMIT_PER_MINUTE). */
export const accountBucket = (accountId: string) => `account:${accountId}`;
export const keyBucket = (keyId: string) => `key:${keyId}`;

/**
 * verifyApiKey and, for a secret key, takeTokens (subject `key:<id>` with the key's own limit, then `account:<id>` with
 * `accountLimitPerMinute` when the key's bucket let the request through) in one statement, one round trip: what every
 * key-protected request does first. Null for an unknown or revoked key (no bucket is touched). `rateLimit` is the
 * refusing bucket's state, else the one with fewer tokens left; a request the account's bucket refuses gets its key's
 * token back (a second statement, only then), so a refused request takes nothing.
 * A publishable key's request takes no token here (`rateLimit` null): anyone can hold one, so its per-address limit and
 * its origin come first and only a request they let through draws on the key and the account (with-api-key.ts).
 * Written once as text (db/client `queryRows`): this runs on every API request.
 */
export async function verifyApiKeyTakingToken(
  db: Db,
  key: string,
  accountLimitPerMinute: number,
): Promise<{
  principal: ApiKeyPrincipal;
  rateLimit: RateLimitState | null;
  refusedBy: "key" | "account" | null;
} | null> {
  if (!looksLikeApiKey(key)) return null;
  const [row] = await queryRows<{
    id: string;
    account_id: string;
    permissions: ApiKeyPermission[];
    prevent_duplicate_orders: boolean;
    rate_limit_per_minute: number;
    kind: ApiKeyKind;
    allowed_origins: string[];
    tokens: number | null;
    allowed: boolean | null;
    account_tokens: number | null;
    account_allowed: boolean | null;
  }>(db, VERIFY_AND_TAKE_TOKEN, [hashApiKey(key), new Date().toISOString(), accountLimitPerMinute]);
  if (!row) return null;
  const principal: ApiKeyPrincipal = {
    keyId: row.id,
    accountId: row.account_id,
    permissions: row.permissions,
    preventDuplicateOrders: row.prevent_duplicate_orders,
    rateLimitPerMinute: row.rate_limit_per_minute,
    kind: row.kind,
    allowedOrigins: row.allowed_origins,
  };
  if (row.allowed === null) return { principal, rateLimit: null, refusedBy: null };
  const keyState = bucketState(Number(row.tokens), row.allowed, row.rate_limit_per_minute, 1);
  if (!keyState.allowed || row.account_allowed === null) {
    return { principal, rateLimit: keyState, refusedBy: keyState.allowed ? null : "key" };
  }
  const accountState = bucketState(Number(row.account_tokens), row.account_allowed, accountLimitPerMinute, 1);
  if (!accountState.allowed) {
    await giveBackTokens(db, keyBucket(row.id), row.rate_limit_per_minute, 1);
    return { principal, rateLimit: accountState, refusedBy: "account" };
  }
  return { principal, rateLimit: tightest([keyState, accountState]), refusedBy: null };
}

// The same refill rule as takeTokens (a bucket of `limit` tokens refilling at `limit` a minute by the app's clock, $2;
// a refused request takes nothing), with the key's limit read from the key row and the account's given ($3), the
// account's bucket only drawn on when the key's let the request through, neither for a publishable key; last_used_at as in verifyApiKey (at most
// once a minute, by the database's clock as there).
const VERIFY_AND_TAKE_TOKEN = `
with k as (
  select id, account_id, permissions, prevent_duplicate_orders, rate_limit_per_minute, kind, allowed_origins,
         rate_limit_per_minute::float8 as lim
  from api_keys where key_hash = $1 and revoked_at is null limit 1
), used as (
  update api_keys set last_used_at = now()
  where id = (select id from k) and (last_used_at is null or last_used_at < now() - interval '1 minute')
), bucket as (
  insert into rate_limit_buckets as b (subject, tokens, allowed, updated_at)
  select 'key:' || k.id, k.lim - 1, true, $2::timestamptz from k where k.kind = 'secret'
  on conflict (subject) do update set
    tokens = (select case when r.v >= 1 then r.v - 1 else r.v end from (
      select least(k.lim, b.tokens + greatest(0::float8, extract(epoch from ($2::timestamptz - b.updated_at))::float8) * (k.lim / 60)) as v
      from k) r),
    allowed = (select least(k.lim, b.tokens + greatest(0::float8, extract(epoch from ($2::timestamptz - b.updated_at))::float8) * (k.lim / 60)) >= 1
      from k),
    updated_at = greatest(b.updated_at, $2::timestamptz)
  returning subject, tokens, allowed
), account as (
  insert into rate_limit_buckets as b (subject, tokens, allowed, updated_at)
  select 'account:' || k.account_id, $3::float8 - 1, true, $2::timestamptz from k join bucket on bucket.allowed
  on conflict (subject) do update set
    tokens = (select case when r.v >= 1 then r.v - 1 else r.v end from (
      select least($3::float8, b.tokens + greatest(0::float8, extract(epoch from ($2::timestamptz - b.updated_at))::float8) * ($3::float8 / 60)) as v) r),
    allowed = least($3::float8, b.tokens + greatest(0::float8, extract(epoch from ($2::timestamptz - b.updated_at))::float8) * ($3::float8 / 60)) >= 1,
    updated_at = greatest(b.updated_at, $2::timestamptz)
  returning tokens, allowed
)
select k.id, k.account_id, k.permissions, k.prevent_duplicate_orders, k.rate_limit_per_minute, k.kind, k.allowed_origins,
       bucket.tokens, bucket.allowed,
       account.tokens as account_tokens, account.allowed as account_allowed
from k left join bucket on bucket.subject = 'key:' || k.id left join account on true`;
