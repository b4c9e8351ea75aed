import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { validationResults } from "@/db/schema";
import type { ValidatedOrder } from "./validate-order";

export type ValidationOrigin = { accountId: string; apiKeyId?: string | null; userId?: string | null };

/** Stores one review record per order, in one statement; answers their ids in the orders' order. */
export async function recordValidationResults(
  db: Executor,
  origin: ValidationOrigin,
  operation: "validate" | "create",
  courier: string,
  courierProfileId: string | null,
  raws: unknown[],
  orders: ValidatedOrder[],
): Promise<string[]> {
  if (orders.length === 0) return [];
  const rows = await db
    .insert(validationResults)
    .values(
      orders.map((o, i) => ({
        accountId: origin.accountId,
        apiKeyId: origin.apiKeyId ?? null,
        userId: origin.userId ?? null,
        operation,
        courier,
        courierProfileId,
        referenceNumber: o.response.referenceNumber?.slice(0, 200) ?? null,
        status: o.response.status,
        messages: o.response.messages,
        // A JSON null (a body of `null`, or `[null]`) is kept as the jsonb value null: SQL NULL would break the not-null column.
        requestBody: raws[i] === null || raws[i] === undefined ? sql`'null'::json` : (raws[i] as object),
      })),
    )
    .returning({ id: validationResults.id });
  return rows.map((r) => r.id);
}
