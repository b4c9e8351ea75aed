import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, refusedAttempts, validationResults, type ValidationMessageRecord } from "@/db/schema";
import { notFound } from "@/server/errors";
import { isUuid } from "@/server/validation";
import { accountAccess, type Actor } from "../authorization";
import { refusalColumns, toSummary, type ValidationResultSummary } from "./list-validation-results";

export type ValidationResultDetail = ValidationResultSummary & {
  courierProfileId: string | null;
  messages: ValidationMessageRecord[];
  requestBody: unknown;
};

/** One validation with the request as sent and its messages; another account's result is a 404. */
export async function getValidationResult(db: Executor, actor: Actor, id: string): Promise<ValidationResultDetail> {
  if (!isUuid(id)) throw notFound("Validation result");
  const [row] = await db
    .select({ r: validationResults, accountName: accounts.name, ...refusalColumns })
    .from(validationResults)
    .innerJoin(accounts, eq(accounts.id, validationResults.accountId))
    .leftJoin(refusedAttempts, eq(refusedAttempts.validationResultId, validationResults.id))
    .where(eq(validationResults.id, id))
    .limit(1);
  if (!row) throw notFound("Validation result");
  await accountAccess(db, actor, row.r.accountId).catch((error: { code?: string }) => {
    throw error.code === "not_found" ? notFound("Validation result") : error;
  });
  const { r, accountName, ...refusal } = row;
  return {
    ...toSummary(r, accountName, refusal),
    courierProfileId: r.courierProfileId,
    messages: r.messages,
    requestBody: r.requestBody,
  };
}
