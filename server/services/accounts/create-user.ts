import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { accounts, memberships, users, type MembershipRole } from "@/db/schema";
import { hashPassword } from "@/server/auth/passwords";
import { AppError, notFound } from "@/server/errors";
import { isUuid, parseInput } from "@/server/validation";
import { createAccount } from "./create-account";

export const createUserInput = z
  .object({
    email: z.email("email must be a valid address").max(254),
    password: z.string().min(8, "password must have at least 8 characters").max(200),
    accountName: z.string().trim().min(1).max(100).optional(),
    accountId: z.string().optional(),
    role: z.enum(["owner", "member"]).optional(),
    staff: z.boolean().default(false),
    name: z.string().trim().max(100).optional(),
  })
  .refine((v) => Boolean(v.accountName) !== Boolean(v.accountId), {
    message: "give exactly one of account (a new account's name) or accountId (an existing account)",
    path: ["account"],
  });

export type CreateUserInput = z.input<typeof createUserInput>;

/**
 * Creates a user and either a new account (the user becomes its owner; the account starts with a default
 * sandbox courier profile) or a membership of an existing one
 * (a member unless `role` says otherwise). A user that exists already is added to the account.
 */
export async function createUser(db: Db, raw: CreateUserInput): Promise<{ userId: string; accountId: string }> {
  const input = parseInput(createUserInput, raw);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    let accountId: string;
    let role: MembershipRole;
    if (input.accountId) {
      if (!isUuid(input.accountId)) throw notFound("Account");
      const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, input.accountId));
      if (!account) throw notFound("Account");
      accountId = account.id;
      role = input.role ?? "member";
    } else {
      ({ accountId } = await createAccount(tx, input.accountName!));
      role = input.role ?? "owner";
    }
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, input.email.toLowerCase()));
    if (existing && !raw.accountId) {
      throw new AppError(
        "conflict",
        `A user with email ${input.email} exists; use --account-id to add them to an account.`,
      );
    }
    const userId =
      existing?.id ??
      (
        await tx
          .insert(users)
          .values({ email: input.email, passwordHash, isStaff: input.staff, name: input.name })
          .returning({ id: users.id })
      )[0]!.id;
    await tx.insert(memberships).values({ userId, accountId, role }).onConflictDoNothing();
    return { userId, accountId };
  });
}
