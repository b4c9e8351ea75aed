import type { Executor } from "@/db/client";
import { addressLimitKey } from "./address-key";
import { rateLimited, takeTokens, type RateLimitState } from "./take-tokens";

export const SIGN_IN_PER_EMAIL_PER_MINUTE = 10;
export const SIGN_IN_PER_IP_PER_MINUTE = 60;

export const signInThrottled = {
  email: (state: RateLimitState) => rateLimited(state, "Too many sign-in attempts for this email"),
  address: (state: RateLimitState) => rateLimited(state, "Too many sign-in attempts from this address"),
};

/**
 * Password guessing is slowed per email and per client address (an IPv6 client per /64; a request whose address is
 * unknown counts under one shared key), for tokens and dashboard sign-in alike.
 */
export async function throttleSignIn(db: Executor, email: string, ip: string | null): Promise<void> {
  const byEmail = await takeTokens(db, `signin-email:${email.trim().toLowerCase()}`, SIGN_IN_PER_EMAIL_PER_MINUTE);
  if (!byEmail.allowed) throw signInThrottled.email(byEmail);
  const byIp = await takeTokens(db, `signin-ip:${addressLimitKey(ip)}`, SIGN_IN_PER_IP_PER_MINUTE);
  if (!byIp.allowed) throw signInThrottled.address(byIp);
}
