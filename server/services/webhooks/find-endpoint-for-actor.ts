import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhookEndpoints, type WebhookEndpointRow } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";

/** An endpoint of an account the actor belongs to (`write`: may change); another account's is a 404. */
export async function findEndpointForActor(
  db: Executor,
  actor: Actor,
  id: string,
  { write = false, lock = false } = {},
): Promise<WebhookEndpointRow> {
  if (!isUuid(id)) throw notFound("Webhook endpoint");
  const query = db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Webhook endpoint");
  try {
    await accountAccess(db, actor, row.accountId, { write });
  } catch (error) {
    if ((error as { code?: string }).code === "not_found") throw notFound("Webhook endpoint");
    throw error;
  }
  return row;
}
