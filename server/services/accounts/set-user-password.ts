import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import { hashPassword } from "@/server/auth/passwords";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation";
import { passwordInput } from "./create-user";

export const setUserPasswordInput = z.object({
  email: z.email("email must be a valid address").max(254),
  password: passwordInput,
});

/**
 * `npm run admin -- user:password`: a user's new password. It raises the user's session version, so every
 * dashboard session and access token issued before ends at its next use (server/auth/next-auth.ts, with-access-token.ts).
 */
export async function setUserPassword(
  db: Executor,
  raw: z.input<typeof setUserPasswordInput>,
): Promise<{ userId: string }> {
  const input = parseInput(setUserPasswordInput, raw);
  const passwordHash = await hashPassword(input.password);
  const [user] = await db
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(sql`lower(${users.email})`, input.email.trim().toLowerCase()))
    .returning({ id: users.id });
  if (!user)
    throw new AppError("not_found", `No user has the email ${input.email}.`, {
      errors: [{ field: "email", message: "no user has this email" }],
    });
  return { userId: user.id };
}
