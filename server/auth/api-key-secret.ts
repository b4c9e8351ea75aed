import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const API_KEY_PREFIX = "svc_";
/** A publishable key (safe in a web page, pickup-point search only) says so in its prefix. */
export const PUBLISHABLE_KEY_PREFIX = "svc_pk_";
const RANDOM_LENGTH = 43; // 43 base62 characters ≈ 256 bits

/** A new API key: `svc_` and 43 uniformly random base62 characters (rejection sampling, no modulo bias). */
export function generateApiKey(prefix: string = API_KEY_PREFIX): string {
  let out = "";
  while (out.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < RANDOM_LENGTH) out += BASE62[byte % 62];
    }
  }
  return prefix + out;
}

export const hashApiKey = (key: string): string => createHash("sha256").update(key).digest("hex");

export const maskApiKey = (suffix: string, kind: "secret" | "publishable" = "secret"): string =>
  `${kind === "publishable" ? PUBLISHABLE_KEY_PREFIX : API_KEY_PREFIX}****${suffix}`;

/** Cheap shape check so obvious garbage never reaches the database. */
export const looksLikeApiKey = (value: string): boolean => /^svc_(pk_)?[0-9A-Za-z]{40,200}$/.test(value);
