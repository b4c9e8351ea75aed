import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, apiKeys, courierProfiles, refusedAttempts, users } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";
import { toRefusedAttemptSummary, type RefusedAttemptSummary } from "./list-refused-attempts";

export type RefusedAttemptDetail = RefusedAttemptSummary & { request: unknown };

/** One refused attempt with the order as it was sent; another account's is a 404. */
export async function getRefusedAttempt(db: Executor, actor: Actor, id: string): Promise<RefusedAttemptDetail> {
  if (!isUuid(id)) throw notFound("Refused order");
  const [row] = await db
    .select({
      r: refusedAttempts,
      accountName: accounts.name,
      profileName: courierProfiles.name,
      keyName: apiKeys.name,
      userEmail: users.email,
    })
    .from(refusedAttempts)
    .innerJoin(accounts, eq(accounts.id, refusedAttempts.accountId))
    .leftJoin(courierProfiles, eq(courierProfiles.id, refusedAttempts.courierProfileId))
    .leftJoin(apiKeys, eq(apiKeys.id, refusedAttempts.apiKeyId))
    .leftJoin(users, eq(users.id, refusedAttempts.userId))
    .where(eq(refusedAttempts.id, id))
    .limit(1);
  if (!row) throw notFound("Refused order");
  await accountAccess(db, actor, row.r.accountId).catch((error: { code?: string }) => {
    throw error.code === "not_found" ? notFound("Refused order") : error;
  });
  return { ...toRefusedAttemptSummary(row.r, row), request: row.r.request };
}
