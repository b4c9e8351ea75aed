import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation";
import { recordCliAudit } from "../audit/record-cli-audit";

export const setUserStaffInput = z.object({
  email: z.email("email must be a valid address").max(254),
  staff: z.boolean(),
});

/**
 * `npm run admin -- user:staff`: grants or revokes a user's staff rights (every account's data, the staff pages). The
 * change is recorded, with the CLI as actor, in the audit trail of each account the user belongs to (so its owners see
 * it), or once without an account for a user in none. A user who already is (or is not) staff changes nothing and
 * records nothing. The next request of the user's sessions sees it: the dashboard and the API read the flag per request.
 */
export async function setUserStaff(
  db: Db,
  raw: z.input<typeof setUserStaffInput>,
): Promise<{ userId: string; staff: boolean; changed: boolean }> {
  const input = parseInput(setUserStaffInput, raw);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, isStaff: users.isStaff })
      .from(users)
      .where(eq(sql`lower(${users.email})`, input.email.toLowerCase()))
      .for("update");
    if (!user)
      throw new AppError("not_found", `No user has the email ${input.email}.`, {
        errors: [{ field: "email", message: "no user has this email" }],
      });
    if (user.isStaff === input.staff) return { userId: user.id, staff: input.staff, changed: false };
    await tx.update(users).set({ isStaff: input.staff }).where(eq(users.id, user.id));
    const accountIds = (
      await tx.select({ accountId: memberships.accountId }).from(memberships).where(eq(memberships.userId, user.id))
    ).map((m) => m.accountId);
    for (const accountId of accountIds.length ? accountIds : [null]) {
      await recordCliAudit(tx, {
        accountId,
        action: input.staff ? "user.staff_granted" : "user.staff_revoked",
        targetId: user.id,
        details: { email: input.email },
      });
    }
    return { userId: user.id, staff: input.staff, changed: true };
  });
}
