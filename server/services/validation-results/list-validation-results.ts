import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { accounts, refusedAttempts, validationResults, validationStatus, type ValidationResultRow } from "@/db/schema";
import { AppError } from "@/server/errors";
import { formatMillis } from "@/server/time";
import { accountAccess, type Actor } from "../authorization";
import { courierNameOf } from "../refused-attempts/list-refused-attempts";
import { envelope, offsetOf, pagingInput, type Page } from "../pagination";

export const listValidationResultsInput = pagingInput.extend({
  /** Required for partners; staff may omit it to see every account. */
  accountId: z.string().optional(),
  status: z.array(z.enum(validationStatus.enumValues)).optional(),
  courier: z.string().optional(),
  referenceNumber: z.string().trim().max(200).optional(),
  from: z.date().optional(),
  to: z.date().optional(),
});

export type ListValidationResultsInput = z.input<typeof listValidationResultsInput>;

export type ValidationResultSummary = {
  id: string;
  accountId: string;
  accountName: string;
  created: string;
  operation: "validate" | "create";
  courier: string;
  courierName: string;
  referenceNumber: string | null;
  status: "OK" | "WARNING" | "ERROR";
  errors: number;
  warnings: number;
  /** What became of a create the rules passed but the courier refused or did not answer; null otherwise. */
  refusal: ValidationRefusal | null;
};

export type ValidationRefusal = { refusedAttemptId: string; code: string; message: string };

/** The refused attempt a create's validation led to, if any: one left join in the list and the detail. */
export const refusalColumns = {
  refusedAttemptId: refusedAttempts.id,
  refusalCode: refusedAttempts.code,
  refusalMessage: refusedAttempts.message,
};
type RefusalColumns = { refusedAttemptId: string | null; refusalCode: string | null; refusalMessage: string | null };

/** Validation history, newest first: one account's for its members, any or all accounts' for staff. */
export async function listValidationResults(
  db: Executor,
  actor: Actor,
  raw: ListValidationResultsInput,
): Promise<Page<ValidationResultSummary>> {
  const input = listValidationResultsInput.parse(raw);
  const c: SQL[] = [];
  if (input.accountId) {
    await accountAccess(db, actor, input.accountId);
    c.push(eq(validationResults.accountId, input.accountId));
  } else if (!actor.isStaff) {
    throw new AppError("bad_request", "accountId is required.", {
      errors: [{ field: "accountId", message: "required" }],
    });
  }
  if (input.status?.length) c.push(inArray(validationResults.status, input.status));
  if (input.courier) c.push(eq(validationResults.courier, input.courier));
  if (input.referenceNumber)
    c.push(ilike(validationResults.referenceNumber, `%${input.referenceNumber.replace(/[\\%_]/g, "\\$&")}%`));
  if (input.from) c.push(gte(validationResults.createdAt, input.from));
  if (input.to) c.push(lt(validationResults.createdAt, input.to));
  const where = c.length ? and(...c) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ r: validationResults, accountName: accounts.name, ...refusalColumns })
      .from(validationResults)
      .innerJoin(accounts, eq(accounts.id, validationResults.accountId))
      .leftJoin(refusedAttempts, eq(refusedAttempts.validationResultId, validationResults.id))
      .where(where)
      .orderBy(desc(validationResults.createdAt), desc(validationResults.id))
      .limit(input.pageSize)
      .offset(offsetOf(input)),
    db.select({ n: count() }).from(validationResults).where(where),
  ]);
  return envelope(
    rows.map(({ r, accountName, ...refusal }) => toSummary(r, accountName, refusal)),
    total?.n ?? 0,
    input,
  );
}

export const toSummary = (
  r: ValidationResultRow,
  accountName: string,
  refusal: RefusalColumns,
): ValidationResultSummary => ({
  id: r.id,
  accountId: r.accountId,
  accountName,
  created: formatMillis(r.createdAt),
  operation: r.operation,
  courier: r.courier,
  courierName: courierNameOf(r.courier),
  referenceNumber: r.referenceNumber,
  status: r.status,
  errors: r.messages.filter((m) => m.severity === "ERROR").length,
  warnings: r.messages.filter((m) => m.severity === "WARNING").length,
  refusal:
    refusal.refusedAttemptId && refusal.refusalCode && refusal.refusalMessage !== null
      ? { refusedAttemptId: refusal.refusedAttemptId, code: refusal.refusalCode, message: refusal.refusalMessage }
      : null,
});
