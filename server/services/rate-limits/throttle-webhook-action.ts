import type { Executor } from "@/db/client";
import { rateLimited, takeTokens } from "./take-tokens";

/**
 * Actions that make the platform POST to a URL of the caller's choice, or register one: limited per account (per
 * minute), so that a signed-in user cannot turn the platform into a request cannon. The numbers are in the
 * OpenAPI document beside each operation.
 */
export const WEBHOOK_ACTION_LIMITS = {
  create: { perMinute: 30, what: "Too many webhook endpoints created" },
  // A change may register a new URL (resolved in DNS, like a create), so changes are counted as creates are.
  update: { perMinute: 30, what: "Too many webhook endpoint changes" },
  test: { perMinute: 10, what: "Too many test events sent" },
  resend: { perMinute: 60, what: "Too many deliveries resent" },
} as const;

export type WebhookAction = keyof typeof WEBHOOK_ACTION_LIMITS;

export async function throttleWebhookAction(db: Executor, accountId: string, action: WebhookAction): Promise<void> {
  const { perMinute, what } = WEBHOOK_ACTION_LIMITS[action];
  const state = await takeTokens(db, `webhook-${action}:${accountId}`, perMinute);
  if (!state.allowed) throw rateLimited(state, `${what} for this account`);
}
