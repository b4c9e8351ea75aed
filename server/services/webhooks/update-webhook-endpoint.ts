import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints, type WebhookEndpointRow } from "@/db/schema";
import { parseInput } from "@/server/validation";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { throttleWebhookAction } from "../rate-limits/throttle-webhook-action";
import { assertTargetAllowed } from "./check-target";
import { findEndpointForActor } from "./find-endpoint-for-actor";
import { toWebhookEndpointView, updateWebhookEndpointInput, type WebhookEndpointView } from "./schemas";
import { targetPolicy } from "./target-policy";

/** Changes what was sent; `enabled: true` also clears an automatic disable and its failure streak. */
export async function updateWebhookEndpoint(
  db: Db,
  actor: Actor,
  id: string,
  raw: unknown,
  audit: AuditContext = {},
): Promise<WebhookEndpointView> {
  const input = parseInput(updateWebhookEndpointInput, raw);
  const endpoint = await findEndpointForActor(db, actor, id, { write: true });
  await throttleWebhookAction(db, endpoint.accountId, "update");
  const url = input.url === undefined ? undefined : await assertTargetAllowed(input.url, targetPolicy());
  return db.transaction(async (tx) => {
    const row = await findEndpointForActor(tx, actor, id, { write: true, lock: true });
    const changes: Partial<WebhookEndpointRow> = Object.fromEntries(
      Object.entries({ ...input, url }).filter(([, v]) => v !== undefined),
    );
    if (Object.keys(changes).length === 0) return toWebhookEndpointView(row);
    const reset =
      input.enabled === true && !row.enabled ? { disabledReason: null, failureStreak: 0, failingSince: null } : {};
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ ...changes, ...reset })
      .where(eq(webhookEndpoints.id, row.id))
      .returning();
    await recordAudit(tx, {
      ...audit,
      accountId: row.accountId,
      actorUserId: actor.userId,
      action: "webhook_endpoint.updated",
      targetId: row.id,
      details: changes,
    });
    return toWebhookEndpointView(updated!);
  });
}
