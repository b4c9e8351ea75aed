import type { SecretBinding } from "./seal-secret";

/** Where a webhook endpoint's signing secret is stored: the current one and the one before the last rotation. */
export const webhookSecretBinding = (
  endpoint: { id: string; accountId: string },
  field: "secret" | "previous_secret",
): SecretBinding => ({ table: "webhook_endpoints", rowId: endpoint.id, field, accountId: endpoint.accountId });
