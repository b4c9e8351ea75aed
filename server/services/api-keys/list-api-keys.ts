import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { accountAccess, type Actor } from "../authorization";
import { envelope, offsetOf, type Page, type Paging } from "../pagination";
import type { ApiKeyView } from "./schemas";
import { toApiKeyView } from "./to-view";

/** The account's active keys, newest first, masked. */
export async function listApiKeys(
  db: Executor,
  actor: Actor,
  accountId: string,
  paging: Paging,
): Promise<Page<ApiKeyView>> {
  await accountAccess(db, actor, accountId);
  const where = and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(paging.pageSize)
      .offset(offsetOf(paging)),
    db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  return envelope(rows.map(toApiKeyView), total?.n ?? 0, paging);
}
