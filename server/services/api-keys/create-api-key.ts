import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, type ApiKeyKind } from "@/db/schema";
import { AppError } from "@/server/errors";
import { throttleApiKeyCreation } from "@/server/services/rate-limits/throttle-api-key-creation";
import { API_KEY_PREFIX, generateApiKey, hashApiKey, PUBLISHABLE_KEY_PREFIX } from "@/server/auth/api-key-secret";
import { parseInput } from "@/server/validation";
import { accountAccess, defaultAccountId, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { API_KEY_PERMISSIONS } from "@/lib/api-key-permissions";
import { createApiKeyInput, type CreatedApiKeyView } from "./schemas";
import { toApiKeyView } from "./to-view";

/** Active (not revoked) keys an account may hold of each kind: every one is a row and a rate-limit bucket of its own. */
export const MAX_ACTIVE_KEYS_PER_KIND = 50;

/** The advisory lock class of an account's key creation (the two-key form: never shares a key with one-key locks). */
const API_KEY_CREATION_LOCK_CLASS = 27_400;

export const apiKeyLimitReached = (kind: ApiKeyKind) =>
  new AppError(
    "conflict",
    `An account can have at most ${MAX_ACTIVE_KEYS_PER_KIND} active ${kind} API keys; revoke one before creating another.`,
  );

/**
 * Creates a key with every permission (unless narrowed); the full key is in this answer and nowhere else. A
 * publishable key holds no permission: what it may call is the routes' to say (pickup-point search only). Creation is
 * throttled per user and per account, and an account holds at most MAX_ACTIVE_KEYS_PER_KIND active keys of each kind
 * (409 past it; counted under a per-account lock, so two creations at once cannot both take the last place).
 */
export async function createApiKey(
  db: Db,
  actor: Actor,
  raw: unknown,
  audit: AuditContext = {},
): Promise<CreatedApiKeyView> {
  const input = parseInput(createApiKeyInput, raw);
  const accountId = input.accountId ?? (await defaultAccountId(db, actor));
  await accountAccess(db, actor, accountId, { write: true });
  await throttleApiKeyCreation(db, { userId: actor.userId, accountId });
  const kind = input.kind ?? "secret";
  const publishable = kind === "publishable";
  const key = generateApiKey(publishable ? PUBLISHABLE_KEY_PREFIX : API_KEY_PREFIX);
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${API_KEY_CREATION_LOCK_CLASS}, hashtext(${accountId}))`);
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.kind, kind), isNull(apiKeys.revokedAt)));
    if (active!.n >= MAX_ACTIVE_KEYS_PER_KIND) throw apiKeyLimitReached(kind);
    const [created] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name: input.name,
        keyHash: hashApiKey(key),
        suffix: key.slice(-4),
        kind,
        allowedOrigins: input.allowedOrigins ?? [],
        permissions: publishable ? [] : (input.permissions ?? [...API_KEY_PERMISSIONS]),
        preventDuplicateOrders: input.preventDuplicateOrders ?? false,
        rateLimitPerMinute: input.rateLimitPerMinute ?? 600,
        createdByUserId: actor.userId,
      })
      .returning();
    await recordAudit(tx, {
      ...audit,
      accountId,
      actorUserId: actor.userId,
      action: "api_key.created",
      targetId: created!.id,
      details: { name: input.name, ...(publishable ? { kind, allowedOrigins: input.allowedOrigins } : {}) },
    });
    return created!;
  });
  const { lastUsed: _lastUsed, ...view } = toApiKeyView(row);
  return { ...view, key };
}
