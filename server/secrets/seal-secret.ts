import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { keyring, type Keyring } from "./keyring";

/**
 * A secret as stored: `sealed:v2:<keyId>:<base64(iv ‖ ciphertext ‖ tag)>`, AES-256-GCM with a random 96-bit IV and
 * the place it is stored at (table, row, field, account) as associated data: a value copied to another row, field or
 * account (from a dump, or sent back through the API) does not open. The key id names which configured key opens
 * it, so a rotation can re-encrypt values one by one while both keys work.
 *
 * Older forms (`sealed:v1:…`, bound to nothing, and plain text from before sealing) are never opened by the app:
 * only `resealStoredSecrets` (after migrations, and `npm run admin -- secrets:rotate`) reads them, to seal them as v2.
 */
const PREFIX = "sealed:v2:";
const LEGACY_PREFIX = "sealed:v1:";

/** Where a sealed value is stored: it opens there and nowhere else. */
export type SecretBinding = {
  table: "courier_profiles" | "webhook_endpoints";
  rowId: string;
  /** The column, or for a jsonb of settings the path in it (`settings.apiPassword`). */
  field: string;
  accountId: string;
};

export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

/** The id of the key a stored value is sealed under (null for a value in an older form). */
export const sealedKeyId = (value: string): string | null => (isSealed(value) ? value.split(":")[2]! : null);

export class SecretUnreadable extends Error {
  constructor(detail: string) {
    // Never the value: only which key was missing or did not fit.
    super(`a stored secret cannot be opened with the configured keys (${detail})`);
    this.name = "SecretUnreadable";
  }
}

const associatedData = (b: SecretBinding): Buffer =>
  Buffer.from(["sealed:v2", b.table, b.rowId, b.field, b.accountId].join("\0"), "utf8");

export function sealSecret(plain: string, binding: SecretBinding, ring: Keyring = keyring()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  cipher.setAAD(associatedData(binding));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${ring.current.id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64")}`;
}

/** The plain secret of a value sealed for exactly this place; anything else (another row, an older form) throws. */
export function openSecret(stored: string, binding: SecretBinding, ring: Keyring = keyring()): string {
  if (!isSealed(stored)) throw new SecretUnreadable("not sealed as v2: run `npm run admin -- secrets:rotate`");
  return openPayload(stored, ring, associatedData(binding));
}

function openPayload(stored: string, ring: Keyring, aad: Buffer | null): string {
  const [, , keyId, payload] = stored.split(":") as [string, string, string, string | undefined];
  const key = ring.byId.get(keyId);
  if (!key) throw new SecretUnreadable(`sealed under key ${keyId}`);
  const raw = Buffer.from(payload ?? "", "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, raw.subarray(0, 12));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadable(`sealed under key ${keyId}, not for this row and field`);
  }
}

/**
 * For the reseal only: the plain secret of a value as stored at `binding`, in any form the platform ever stored —
 * v2 (for this place), v1 (bound to nothing) or plain text from before sealing existed.
 */
export function openStoredSecret(stored: string, binding: SecretBinding, ring: Keyring = keyring()): string {
  if (isSealed(stored)) return openSecret(stored, binding, ring);
  if (stored.startsWith(LEGACY_PREFIX)) return openPayload(stored, ring, null);
  return stored;
}

/** Whether a stored value should be sealed again: an older form, or v2 under an older key. */
export const needsReseal = (stored: string, ring: Keyring = keyring()): boolean =>
  sealedKeyId(stored) !== ring.current.id;
