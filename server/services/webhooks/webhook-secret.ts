import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { openSecret } from "@/server/secrets/seal-secret";
import { webhookSecretBinding } from "@/server/secrets/webhook-secret-binding";

/** `whsec_` + base64 of 32 random bytes, the Standard Webhooks secret format. */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

/** How long a rotated-out secret keeps signing, so receivers can switch without missing a delivery. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` holds one `v1,` signature per secret
 * still valid (current first), space-separated; receivers accept a message if any of them verifies.
 */
export function signedHeaders(eventId: string, body: string, secrets: string[], now: Date): Record<string, string> {
  const timestamp = new Date(Math.floor(now.getTime() / 1000) * 1000);
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp.getTime() / 1000),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(eventId, timestamp, body)).join(" "),
  };
}

/** The secrets that sign now: the current one, and the previous one during its overlap. */
export function signingSecrets(
  endpoint: {
    id: string;
    accountId: string;
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: Date | null;
  },
  now: Date,
): string[] {
  const previousValid =
    endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  // Stored sealed (server/secrets/); opened here, where signing happens, and nowhere else.
  const current = openSecret(endpoint.secret, webhookSecretBinding(endpoint, "secret"));
  return previousValid
    ? [current, openSecret(endpoint.previousSecret!, webhookSecretBinding(endpoint, "previous_secret"))]
    : [current];
}
