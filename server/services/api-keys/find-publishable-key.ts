import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { hashApiKey, looksLikeApiKey } from "@/server/auth/api-key-secret";

/**
 * The origins of an active publishable key, or null for anything else (unknown, revoked, a secret key). The widget's
 * dialog page asks before it shows anything: a page may frame it only with a key that lists that page's origin.
 * Reading it takes no rate-limit token; the searches the page then makes do.
 */
export async function publishableKeyOrigins(db: Executor, key: string): Promise<string[] | null> {
  if (!looksLikeApiKey(key)) return null;
  const [row] = await db
    .select({ allowedOrigins: apiKeys.allowedOrigins })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), eq(apiKeys.kind, "publishable"), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row?.allowedOrigins ?? null;
}
