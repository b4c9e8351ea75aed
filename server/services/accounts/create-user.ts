import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { accounts, memberships, users, type MembershipRole } from "@/db/schema";
import { hashPassword } from "@/server/auth/passwords";
import { AppError, badField, notFound } from "@/server/errors";
import { isUuid, parseInput } from "@/server/validation";
import { recordCliAudit } from "../audit/record-cli-audit";
import { createAccount } from "./create-account";

export const passwordInput = z.string().min(8, "password must have at least 8 characters").max(200);

export const createUserInput = z
  .object({
    email: z.email("email must be a valid address").max(254),
    password: passwordInput.optional().describe("Required for a new user; refused for an existing one."),
    accountName: z.string().trim().min(1).max(100).optional(),
    accountId: z.string().optional(),
    role: z.enum(["owner", "member"]).optional(),
    staff: z.boolean().optional().describe("Only for a new user."),
    name: z.string().trim().max(100).optional(),
  })
  .refine((v) => Boolean(v.accountName) !== Boolean(v.accountId), {
    message: "give exactly one of account (a new account's name) or accountId (an existing account)",
    path: ["account"],
  });

export type CreateUserInput = z.input<typeof createUserInput>;

/** An existing user's field that `createUser` would have to change: refused, naming it, never silently dropped. */
const existingUserRefusal = (email: string, field: "password" | "staff" | "name" | "role", what: string) =>
  new AppError("conflict", `A user with email ${email} exists: ${what}.`, { errors: [{ field, message: what }] });

/**
 * Creates a user and either a new account (the user becomes its owner; the account starts with a default
 * sandbox courier profile) or a membership of an existing one (a member unless `role` says otherwise).
 *
 * A user that exists already can only be added to an existing account: a password, staff flag or name given for them
 * is refused (409 naming the field) rather than dropped, as is a membership they have already, since this would
 * change nothing the caller asked for; `setUserPassword`, `setUserStaff` and `setMembershipRole` change those.
 * `options.audit: "admin-cli"` records the new user or membership in the account's audit trail with the CLI as actor.
 */
export async function createUser(
  db: Db,
  raw: CreateUserInput,
  options: { audit?: "admin-cli" } = {},
): Promise<{ userId: string; accountId: string; role: MembershipRole; createdUser: boolean }> {
  const input = parseInput(createUserInput, raw);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, input.email.toLowerCase()));
    if (existing) {
      if (!input.accountId) {
        throw new AppError(
          "conflict",
          `A user with email ${input.email} exists; use --account-id to add them to an account.`,
          { errors: [{ field: "account", message: "the user exists: name an existing account to add them to" }] },
        );
      }
      if (input.password !== undefined)
        throw existingUserRefusal(input.email, "password", "their password is not changed when adding them");
      if (input.staff !== undefined)
        throw existingUserRefusal(input.email, "staff", "their staff flag is not changed when adding them");
      if (input.name !== undefined)
        throw existingUserRefusal(input.email, "name", "their name is not changed when adding them");
    } else if (passwordHash === null) {
      throw badField("password", "a new user needs a password");
    }
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
    const userId =
      existing?.id ??
      (
        await tx
          .insert(users)
          .values({ email: input.email, passwordHash: passwordHash!, isStaff: input.staff ?? false, name: input.name })
          .returning({ id: users.id })
      )[0]!.id;
    const [joined] = await tx
      .insert(memberships)
      .values({ userId, accountId, role })
      .onConflictDoNothing()
      .returning({ role: memberships.role });
    if (!joined) {
      const [member] = await tx
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)));
      throw existingUserRefusal(
        input.email,
        "role",
        `they are already a member of the account (role ${member!.role}); their role is not changed when adding them`,
      );
    }
    if (options.audit === "admin-cli") {
      await recordCliAudit(tx, {
        accountId,
        action: existing ? "membership.created" : "user.created",
        targetId: userId,
        details: { email: input.email, role, ...(existing ? {} : { staff: input.staff ?? false }) },
      });
    }
    return { userId, accountId, role, createdUser: !existing };
  });
}
