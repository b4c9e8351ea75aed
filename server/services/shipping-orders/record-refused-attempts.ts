import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { refusedAttempts } from "@/db/schema";
import { storedOrder } from "./order-request";
import type { ValidationOrigin } from "./record-validation-results";

export type RefusedAttempt = {
  /** The order as the partner sent it; what is kept is what the platform read of it (`storedOrder`). */
  raw: unknown;
  referenceNumber: string;
  referenceSource: string;
  sourceIdentifier: string;
  validationResultId: string | null;
  code: string;
  message: string;
  /** The order field the courier named, when it named one. */
  field?: string | null;
  /** The courier may have registered it (no answer came after the request reached it). */
  outcomeUnknown?: boolean;
  /** The courier attempt it came from (recovery settles an unknown outcome by it). */
  courierAttemptId?: string | null;
};

/** Keeps every order the courier refused or did not answer, in one statement, so it can be found and sent again. */
export async function recordRefusedAttempts(
  db: Executor,
  origin: ValidationOrigin,
  courier: string,
  courierProfileId: string,
  attempts: RefusedAttempt[],
): Promise<void> {
  if (attempts.length === 0) return;
  await db.insert(refusedAttempts).values(
    attempts.map((a) => {
      const request = storedOrder(a.raw);
      return {
        accountId: origin.accountId,
        apiKeyId: origin.apiKeyId ?? null,
        userId: origin.userId ?? null,
        validationResultId: a.validationResultId,
        courier,
        courierProfileId,
        referenceNumber: a.referenceNumber,
        referenceSource: a.referenceSource,
        sourceIdentifier: a.sourceIdentifier,
        code: a.code,
        message: a.message,
        field: a.field ?? null,
        outcomeUnknown: a.outcomeUnknown ?? false,
        courierAttemptId: a.courierAttemptId ?? null,
        request: request === null ? sql`'null'::json` : (request as object),
      };
    }),
  );
}
