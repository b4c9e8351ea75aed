import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import { verifyPassword } from "@/server/auth/passwords";

// Verified against when the email is unknown, so response time does not reveal which emails exist.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2gkPpwSJYbOCDvPbC3D6mY2Nu2vKJm+0e8lQ4w9EBcU";

export type AuthenticatedUser = {
  id: string;
  email: string;
  name: string | null;
  isStaff: boolean;
  /** The user's session version now: sessions and tokens issued with it end when it is raised. */
  sessionVersion: number;
};

/** The user with this email and password, or null. */
export async function authenticateUser(
  db: Executor,
  email: string,
  password: string,
): Promise<AuthenticatedUser | null> {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      isStaff: users.isStaff,
      sessionVersion: users.sessionVersion,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    isStaff: user.isStaff,
    sessionVersion: user.sessionVersion,
  };
}
