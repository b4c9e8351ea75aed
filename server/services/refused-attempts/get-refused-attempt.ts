import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { refusedAttempts } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";
import { selectRefusedAttempts, toRefusedAttemptSummary, type RefusedAttemptSummary } from "./list-refused-attempts";

export type RefusedAttemptDetail = RefusedAttemptSummary & { request: unknown };

/** One refused attempt with the order as it was sent; another account's is a 404. */
export async function getRefusedAttempt(db: Executor, actor: Actor, id: string): Promise<RefusedAttemptDetail> {
  if (!isUuid(id)) throw notFound("Refused order");
  const [row] = await selectRefusedAttempts(db).where(eq(refusedAttempts.id, id)).limit(1);
  if (!row) throw notFound("Refused order");
  await accountAccess(db, actor, row.r.accountId).catch((error: { code?: string }) => {
    throw error.code === "not_found" ? notFound("Refused order") : error;
  });
  return { ...toRefusedAttemptSummary(row.r, row), request: row.r.request };
}
