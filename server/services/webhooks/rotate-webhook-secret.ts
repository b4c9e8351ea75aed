import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { findEndpointForActor } from "./find-endpoint-for-actor";
import { openSecret, sealSecret } from "@/server/secrets/seal-secret";
import { webhookSecretBinding } from "@/server/secrets/webhook-secret-binding";
import { generateWebhookSecret, SECRET_OVERLAP_MS } from "./webhook-secret";

/**
 * A new signing secret, shown once. The one it replaces keeps signing (as a second signature) for 24 hours,
 * so the receiver can switch without rejecting a delivery; rotating again within that window drops the
 * oldest secret.
 */
export async function rotateWebhookSecret(
  db: Db,
  actor: Actor,
  id: string,
  audit: AuditContext = {},
  now = new Date(),
): Promise<{ secret: string }> {
  const secret = generateWebhookSecret();
  await db.transaction(async (tx) => {
    const row = await findEndpointForActor(tx, actor, id, { write: true, lock: true });
    await tx
      .update(webhookEndpoints)
      .set({
        secret: sealSecret(secret, webhookSecretBinding(row, "secret")),
        // Moved to the other column, so sealed again for it (a value opens only in the field it was sealed for).
        previousSecret: sealSecret(
          openSecret(row.secret, webhookSecretBinding(row, "secret")),
          webhookSecretBinding(row, "previous_secret"),
        ),
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
      })
      .where(eq(webhookEndpoints.id, row.id));
    await recordAudit(tx, {
      ...audit,
      accountId: row.accountId,
      actorUserId: actor.userId,
      action: "webhook_endpoint.secret_rotated",
      targetId: row.id,
    });
  });
  return { secret };
}
