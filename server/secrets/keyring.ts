import { createHash } from "node:crypto";
import { env } from "@/server/env";

export type SecretsKey = { id: string; key: Buffer };

/** The key's id, stored beside each value: the first 8 hex digits of the key's SHA-256 (it reveals nothing of it). */
export const keyIdOf = (key: Buffer): string => createHash("sha256").update(key).digest("hex").slice(0, 8);

export function parseSecretsKey(value: string, name = "SECRETS_KEY"): SecretsKey {
  const key = Buffer.from(value.trim(), "base64");
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
  return { id: keyIdOf(key), key };
}

export type Keyring = { current: SecretsKey; byId: Map<string, SecretsKey> };

let cached: { source: string; ring: Keyring } | undefined;

/** The current key (what seals) and every configured key by id (what opens): SECRETS_KEY and SECRETS_KEY_PREVIOUS. */
export function keyring(): Keyring {
  const { SECRETS_KEY, SECRETS_KEY_PREVIOUS } = env();
  const source = `${SECRETS_KEY}\n${SECRETS_KEY_PREVIOUS ?? ""}`;
  if (cached?.source === source) return cached.ring;
  const current = parseSecretsKey(SECRETS_KEY);
  const byId = new Map([[current.id, current]]);
  if (SECRETS_KEY_PREVIOUS) {
    const previous = parseSecretsKey(SECRETS_KEY_PREVIOUS, "SECRETS_KEY_PREVIOUS");
    if (!byId.has(previous.id)) byId.set(previous.id, previous);
  }
  cached = { source, ring: { current, byId } };
  return cached.ring;
}
