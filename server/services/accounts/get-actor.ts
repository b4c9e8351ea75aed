import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import type { Actor } from "../authorization";

/**
 * The actor behind a verified user id; null when the user no longer exists, or when `sessionVersion` (what the
 * session or token was issued with) is not the user's now: a password change has ended it.
 */
export async function getActor(
  db: Executor,
  userId: string,
  { sessionVersion }: { sessionVersion?: number } = {},
): Promise<Actor | null> {
  const [user] = await db
    .select({ id: users.id, isStaff: users.isStaff, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || (sessionVersion !== undefined && sessionVersion !== user.sessionVersion)) return null;
  return { userId: user.id, isStaff: user.isStaff };
}
