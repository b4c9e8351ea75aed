import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { auditEvents, memberships } from "@/db/schema";

/** A sign-in lands in the trail of every account the user belongs to, so each account's owners see it. */
export async function recordSignIn(
  db: Executor,
  userId: string,
  channel: "api-token" | "dashboard",
  ip: string | null,
): Promise<void> {
  const accounts = await db
    .select({ accountId: memberships.accountId })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  if (accounts.length === 0) return;
  await db.insert(auditEvents).values(
    accounts.map(({ accountId }) => ({
      accountId,
      actorUserId: userId,
      action: "user.signed_in",
      details: { channel },
      ip,
    })),
  );
}
