import { count, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import { accountAccess, type Actor } from "../authorization";
import { envelope, offsetOf, type Page, type Paging } from "../pagination";
import { toWebhookEndpointView, type WebhookEndpointView } from "./schemas";

/** The account's endpoints, newest first, without their secrets. */
export async function listWebhookEndpoints(
  db: Executor,
  actor: Actor,
  accountId: string,
  paging: Paging,
): Promise<Page<WebhookEndpointView>> {
  await accountAccess(db, actor, accountId);
  const where = eq(webhookEndpoints.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookEndpoints)
      .where(where)
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
      .limit(paging.pageSize)
      .offset(offsetOf(paging)),
    db.select({ n: count() }).from(webhookEndpoints).where(where),
  ]);
  return envelope(rows.map(toWebhookEndpointView), total?.n ?? 0, paging);
}
