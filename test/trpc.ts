import type { Session } from "next-auth";
import { createTRPCContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import type { TestUser } from "./helpers";

/** A next-auth session as the dashboard would have it for this user. */
export function sessionOf(user: Pick<TestUser, "userId" | "email">, { staff = false } = {}): Session {
  return {
    user: { id: user.userId, email: user.email, name: null, isStaff: staff },
    expires: new Date(Date.now() + 3_600_000).toISOString(),
  };
}

/** The app router called in-process as the given user (or signed out), against the real database. */
export async function callerFor(user: Pick<TestUser, "userId" | "email"> | null, options: { staff?: boolean } = {}) {
  return createCaller(
    await createTRPCContext({ session: user ? sessionOf(user, options) : null, headers: new Headers() }),
  );
}
