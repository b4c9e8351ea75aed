import { v7 as uuidv7 } from "uuid";
import type { Db } from "@/db/client";
import { count, eq } from "drizzle-orm";
import { accounts, webhookEndpoints } from "@/db/schema";
import { AppError } from "@/server/errors";
import { createDeliveryQueue } from "@/server/queue/delivery-queues";
import { parseInput } from "@/server/validation";
import { accountAccess, defaultAccountId, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { throttleWebhookAction } from "../rate-limits/throttle-webhook-action";
import { ORDER_EVENT_TYPES } from "@/lib/event-types";
import { assertTargetAllowed } from "./check-target";
import { createWebhookEndpointInput, toWebhookEndpointView, type CreatedWebhookEndpointView } from "./schemas";
import { targetPolicy } from "./target-policy";
import { sealSecret } from "@/server/secrets/seal-secret";
import { webhookSecretBinding } from "@/server/secrets/webhook-secret-binding";
import { generateWebhookSecret } from "./webhook-secret";

/** Endpoints one account may have (each one multiplies every event's deliveries). */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** Registers an endpoint; its signing secret is in this answer and, for the partner, nowhere else. */
export async function createWebhookEndpoint(
  db: Db,
  actor: Actor,
  raw: unknown,
  audit: AuditContext = {},
): Promise<CreatedWebhookEndpointView> {
  const input = parseInput(createWebhookEndpointInput, raw);
  const accountId = input.accountId ?? (await defaultAccountId(db, actor));
  await accountAccess(db, actor, accountId, { write: true });
  await throttleWebhookAction(db, accountId, "create");
  // DNS is asked before the transaction opens: no network wait while holding a connection in a transaction.
  const url = await assertTargetAllowed(input.url, targetPolicy());
  const secret = generateWebhookSecret();
  const row = await db.transaction(async (tx) => {
    // The account's row serialises concurrent creates, so the cap holds across app instances.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.accountId, accountId));
    if (n >= MAX_WEBHOOK_ENDPOINTS)
      throw new AppError(
        "conflict",
        `An account can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one before adding another.`,
      );
    // The id is made here so the secret can be sealed for this row (bound to it) in the insert itself.
    const id = uuidv7();
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        accountId,
        url,
        description: input.description ?? null,
        eventTypes: input.eventTypes ?? [...ORDER_EVENT_TYPES],
        sources: input.sources ?? null,
        secret: sealSecret(secret, webhookSecretBinding({ id, accountId }, "secret")),
      })
      .returning();
    // Its delivery queue commits with it: an event that finds the endpoint finds the queue its jobs go to.
    await createDeliveryQueue(tx, created!.id);
    await recordAudit(tx, {
      ...audit,
      accountId,
      actorUserId: actor.userId,
      action: "webhook_endpoint.created",
      targetId: created!.id,
      details: { url, eventTypes: created!.eventTypes, sources: created!.sources },
    });
    return created!;
  });
  return { ...toWebhookEndpointView(row), secret };
}
