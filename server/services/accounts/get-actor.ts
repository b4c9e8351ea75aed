import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import type { Actor } from "../authorization";

/** The actor behind a verified user id; null when the user no longer exists. */
export async function getActor(db: Executor, userId: string): Promise<Actor | null> {
  const [user] = await db
    .select({ id: users.id, isStaff: users.isStaff })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return user ? { userId: user.id, isStaff: user.isStaff } : null;
}
