import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * Whether an `Authorization` header carries `Bearer <token>`. Compared in constant time over SHA-256 digests, which
 * are always 32 bytes: neither the sent token's length nor its characters (a multi-byte one is longer in bytes than
 * in characters, which made `timingSafeEqual` throw) change what the comparison does.
 */
export function bearerMatches(authorization: string | null | undefined, token: string): boolean {
  const sent = authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "";
  return timingSafeEqual(digest(sent), digest(token));
}
