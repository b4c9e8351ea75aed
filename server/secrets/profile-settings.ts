/**
 * The one place a courier profile's stored `settings` become the plain settings an adapter receives.
 * Secret fields (the adapter's `settings.secretFields`) are stored sealed inside the same jsonb as strings
 * `sealed:v1:<keyId>:<base64>` (AES-256-GCM, see server/secrets/); this opens them. Every courier call site
 * reads settings through here, never `profile.settings` directly.
 */
export function openProfileSettings(stored: Record<string, unknown>): Record<string, unknown> {
  // Issue 17: replaced by the real implementation (decrypts `sealed:v1:` values).
  return stored;
}
