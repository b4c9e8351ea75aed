import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { API_KEY_PREFIX, generateApiKey, hashApiKey, PUBLISHABLE_KEY_PREFIX } from "@/server/auth/api-key-secret";
import { parseInput } from "@/server/validation";
import { accountAccess, defaultAccountId, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { API_KEY_PERMISSIONS } from "@/lib/api-key-permissions";
import { createApiKeyInput, type CreatedApiKeyView } from "./schemas";
import { toApiKeyView } from "./to-view";

/**
 * Creates a key with every permission (unless narrowed); the full key is in this answer and nowhere else. A
 * publishable key holds no permission: what it may call is the routes' to say (pickup-point search only).
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
  const publishable = input.kind === "publishable";
  const key = generateApiKey(publishable ? PUBLISHABLE_KEY_PREFIX : API_KEY_PREFIX);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name: input.name,
        keyHash: hashApiKey(key),
        suffix: key.slice(-4),
        kind: input.kind ?? "secret",
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
      details: { name: input.name, ...(publishable ? { kind: input.kind, allowedOrigins: input.allowedOrigins } : {}) },
    });
    return created!;
  });
  const { lastUsed: _lastUsed, ...view } = toApiKeyView(row);
  return { ...view, key };
}
