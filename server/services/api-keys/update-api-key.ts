import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { badField } from "@/server/errors";
import { parseInput } from "@/server/validation";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { findKeyForActor } from "./find-key-for-actor";
import { updateApiKeyInput, type ApiKeyView } from "./schemas";
import { toApiKeyView } from "./to-view";

export async function updateApiKey(
  db: Db,
  actor: Actor,
  id: string,
  raw: unknown,
  audit: AuditContext = {},
): Promise<ApiKeyView> {
  const input = parseInput(updateApiKeyInput, raw);
  return db.transaction(async (tx) => {
    const row = await findKeyForActor(tx, actor, id, { lock: true });
    const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    // A publishable key's reach is fixed by its kind; only a publishable key has origins.
    if (row.kind === "publishable") {
      for (const field of ["permissions", "preventDuplicateOrders"] as const)
        if (field in changes) throw badField(field, "a publishable key may only search pickup points");
    } else if ("allowedOrigins" in changes) {
      throw badField("allowedOrigins", "only a publishable key has allowedOrigins");
    }
    if (Object.keys(changes).length === 0) return toApiKeyView(row);
    const [updated] = await tx.update(apiKeys).set(changes).where(eq(apiKeys.id, row.id)).returning();
    await recordAudit(tx, {
      ...audit,
      accountId: row.accountId,
      actorUserId: actor.userId,
      action: "api_key.updated",
      targetId: row.id,
      details: changes,
    });
    return toApiKeyView(updated!);
  });
}
