import { SignJWT, jwtVerify } from "jose";
import { env } from "@/server/env";

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const ISSUER = "shipping-order-platform";
const AUDIENCE = "private-api";

const key = () => new TextEncoder().encode(env().AUTH_SECRET);

/**
 * A signed, expiring bearer token for the private API (HS256, one hour), carrying the user's session version
 * (`sv`): a password change raises it and the token stops working.
 */
export async function signAccessToken(
  userId: string,
  sessionVersion: number,
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
): Promise<string> {
  return new SignJWT({ sv: sessionVersion })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key());
}

/** The user id and session version of a valid token, or null for a forged, expired or malformed one. */
export async function verifyAccessToken(token: string): Promise<{ userId: string; sessionVersion: number } | null> {
  try {
    const { payload } = await jwtVerify(token, key(), { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.sv !== "number") return null;
    return { userId: payload.sub, sessionVersion: payload.sv };
  } catch {
    return null;
  }
}
