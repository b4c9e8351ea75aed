import { and, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { memberships, users, type MembershipRole } from "@/db/schema";
import { AppError } from "@/server/errors";
import { isUuid, parseInput } from "@/server/validation";
import { recordCliAudit } from "../audit/record-cli-audit";

export const setMembershipRoleInput = z.object({
  email: z.email("email must be a valid address").max(254),
  accountId: z.string({ error: "accountId is required" }),
  role: z.enum(["owner", "member"], { error: "role must be owner or member" }),
});

const notAMember = (email: string) =>
  new AppError("not_found", `${email} is no member of that account.`, {
    errors: [{ field: "accountId", message: "the user is no member of this account" }],
  });

/**
 * `npm run admin -- user:role`: a member's role in one account, recorded in the account's audit trail with the CLI as
 * actor. The account's only owner stays an owner (an account nobody can manage would need staff for every change);
 * asking for the role the member has changes nothing and records nothing.
 */
export async function setMembershipRole(
  db: Db,
  raw: z.input<typeof setMembershipRoleInput>,
): Promise<{ userId: string; accountId: string; role: MembershipRole; previousRole: MembershipRole }> {
  const input = parseInput(setMembershipRoleInput, raw);
  if (!isUuid(input.accountId)) throw notAMember(input.email);
  return db.transaction(async (tx) => {
    // One change of an account's owners at a time, so two demotions cannot leave it without one.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`owners:${input.accountId}`}))`);
    const [member] = await tx
      .select({ userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(eq(memberships.accountId, input.accountId), eq(sql`lower(${users.email})`, input.email.toLowerCase())),
      );
    if (!member) throw notAMember(input.email);
    const changed = { userId: member.userId, accountId: input.accountId, role: input.role, previousRole: member.role };
    if (member.role === input.role) return changed;
    if (member.role === "owner") {
      const [owners] = await tx
        .select({ n: count() })
        .from(memberships)
        .where(and(eq(memberships.accountId, input.accountId), eq(memberships.role, "owner")));
      if (owners!.n <= 1)
        throw new AppError("conflict", `${input.email} is the account's only owner: make another member owner first.`, {
          errors: [{ field: "role", message: "the account's only owner stays an owner" }],
        });
    }
    await tx
      .update(memberships)
      .set({ role: input.role })
      .where(and(eq(memberships.accountId, input.accountId), eq(memberships.userId, member.userId)));
    await recordCliAudit(tx, {
      accountId: input.accountId,
      action: "membership.role_changed",
      targetId: member.userId,
      details: { email: input.email, from: member.role, to: input.role },
    });
    return changed;
  });
}
