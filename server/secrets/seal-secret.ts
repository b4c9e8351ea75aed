import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { keyring, type Keyring } from "./keyring";

/**
 * A secret as stored: `sealed:v1:<keyId>:<base64(iv ‖ ciphertext ‖ tag)>`, AES-256-GCM with a random 96-bit IV. The
 * key id names which configured key opens it, so a rotation can re-encrypt values one by one while both keys work.
 */
const PREFIX = "sealed:v1:";

export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

/** The id of the key a stored value is sealed under (null for a value stored before sealing existed). */
export const sealedKeyId = (value: string): string | null => (isSealed(value) ? value.split(":")[2]! : null);

export class SecretUnreadable extends Error {
  constructor(keyId: string) {
    // Never the value: only which key was missing or did not fit.
    super(`a stored secret cannot be opened with the configured keys (sealed under key ${keyId})`);
    this.name = "SecretUnreadable";
  }
}

export function sealSecret(plain: string, ring: Keyring = keyring()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${ring.current.id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64")}`;
}

/** The plain secret; a value stored before sealing existed (plain text) is returned as it is until it is resealed. */
export function openSecret(stored: string, ring: Keyring = keyring()): string {
  if (!isSealed(stored)) return stored;
  const [, , keyId, payload] = stored.split(":") as [string, string, string, string];
  const key = ring.byId.get(keyId);
  if (!key) throw new SecretUnreadable(keyId);
  const raw = Buffer.from(payload, "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadable(keyId);
  }
}

/** Whether a stored value should be sealed again under the current key (plain, or under an older key). */
export const needsReseal = (stored: string, ring: Keyring = keyring()): boolean =>
  sealedKeyId(stored) !== ring.current.id;
