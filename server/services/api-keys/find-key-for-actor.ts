import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys, type ApiKeyRow } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";

/** An active key of an account the actor may change; anything else is a 404. */
export async function findKeyForActor(
  db: Executor,
  actor: Actor,
  id: string,
  { lock = false } = {},
): Promise<ApiKeyRow> {
  if (!isUuid(id)) throw notFound("API key");
  const query = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("API key");
  try {
    await accountAccess(db, actor, row.accountId, { write: true });
  } catch (error) {
    // A key of an account the actor is not in must look like no key at all.
    if ((error as { code?: string }).code === "not_found") throw notFound("API key");
    throw error;
  }
  return row;
}
