import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { generateApiKey, hashApiKey } from "@/server/auth/api-key-secret";
import { parseInput } from "@/server/validation";
import { accountAccess, defaultAccountId, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { API_KEY_PERMISSIONS, createApiKeyInput, type CreatedApiKeyView } from "./schemas";
import { toApiKeyView } from "./to-view";

/** Creates a key with every permission (unless narrowed); the full key is in this answer and nowhere else. */
export async function createApiKey(
  db: Db,
  actor: Actor,
  raw: unknown,
  audit: AuditContext = {},
): Promise<CreatedApiKeyView> {
  const input = parseInput(createApiKeyInput, raw);
  const accountId = input.accountId ?? (await defaultAccountId(db, actor));
  await accountAccess(db, actor, accountId, { write: true });
  const key = generateApiKey();
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name: input.name,
        keyHash: hashApiKey(key),
        suffix: key.slice(-4),
        permissions: input.permissions ?? [...API_KEY_PERMISSIONS],
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
      details: { name: input.name },
    });
    return created!;
  });
  const { lastUsed: _lastUsed, ...view } = toApiKeyView(row);
  return { ...view, key };
}
