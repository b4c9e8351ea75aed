import type { Executor } from "@/db/client";
import { recordSignIn } from "../audit/record-sign-in";
import { throttleSignIn } from "../rate-limits/throttle-sign-in";
import { authenticateUser, type AuthenticatedUser } from "./authenticate-user";

/**
 * Dashboard sign-in (next-auth's credentials provider): throttled and recorded in the audit trail like
 * `POST /auth/token`, so password guessing is slowed whichever door it comes through. Wrong credentials
 * are null; too many attempts throw `rate_limited`.
 */
export async function signInDashboardUser(
  db: Executor,
  { email, password }: { email: string; password: string },
  { ip = null }: { ip?: string | null } = {},
): Promise<AuthenticatedUser | null> {
  await throttleSignIn(db, email, ip);
  const user = await authenticateUser(db, email, password);
  if (user) await recordSignIn(db, user.id, "dashboard", ip);
  return user;
}
