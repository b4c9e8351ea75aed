import type { SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { insertRows } from "@/db/insert-rows";
import { validationResults } from "@/db/schema";
import { storedOrder } from "./order-request";
import type { ValidatedOrder } from "./validate-order";

export type ValidationOrigin = { accountId: string; apiKeyId?: string | null; userId?: string | null };

/** Stores one review record per order, in one statement whose text does not vary with their number. */
export async function recordValidationResults(
  db: Executor,
  origin: ValidationOrigin,
  operation: "validate" | "create",
  courier: string,
  courierProfileId: string | null,
  raws: unknown[],
  orders: ValidatedOrder[],
): Promise<void> {
  if (orders.length === 0) return;
  await db.execute(validationResultsInsert(origin, operation, courier, courierProfileId, raws, orders));
}

/** The insert of recordValidationResults, for a caller that runs it as part of a statement of its own. */
export function validationResultsInsert(
  origin: ValidationOrigin,
  operation: "validate" | "create",
  courier: string,
  courierProfileId: string | null,
  raws: unknown[],
  orders: ValidatedOrder[],
  /** Ids chosen by the caller, to point at these records before the statement runs (refused attempts do). */
  ids?: readonly string[],
): SQL {
  const rows = orders.map((o, i) => ({
    accountId: origin.accountId,
    apiKeyId: origin.apiKeyId ?? null,
    userId: origin.userId ?? null,
    operation,
    courier,
    courierProfileId,
    referenceNumber: o.response.referenceNumber?.slice(0, 200) ?? null,
    referenceSource: o.referenceSource,
    sourceIdentifier: o.sourceIdentifier,
    status: o.response.status,
    messages: o.response.messages,
    // What the platform read of the order, never the raw body (unknown fields, unbounded values). A JSON null (a body
    // of `null`, or `[null]`) is kept as the jsonb value null: SQL NULL would break the not-null column.
    requestBody: storedOrder(raws[i]),
  }));
  return ids
    ? insertRows(
        validationResults,
        [...COLUMNS, "id"] as const,
        rows.map((row, i) => ({ ...row, id: ids[i]! })),
      )
    : insertRows(validationResults, COLUMNS, rows);
}

const COLUMNS = [
  "accountId",
  "apiKeyId",
  "userId",
  "operation",
  "courier",
  "courierProfileId",
  "referenceNumber",
  "referenceSource",
  "sourceIdentifier",
  "status",
  "messages",
  "requestBody",
] as const;
