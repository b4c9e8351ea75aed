import { env } from "@/server/env";

// A dashboard session can create and revoke API keys, so it lasts a working day rather than next-auth's 30 days,
// counted from the sign-in: next-auth re-issues the cookie on every read, which alone would let it slide for ever.
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** Whether a session token is past its absolute lifetime (or from before sessions carried one). */
export const sessionExpired = (token: { authAt?: unknown }, now = Date.now()): boolean =>
  typeof token.authAt !== "number" || now / 1000 - token.authAt > SESSION_MAX_AGE_SECONDS;

/** The session cookie is `Secure` (and `__Secure-` prefixed) when the platform is served over https (PUBLIC_URL). */
export const secureCookies = (): boolean => env().PUBLIC_URL.startsWith("https:");
