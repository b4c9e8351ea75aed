import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { sources } from "@/db/schema";
import { AppError } from "@/server/errors";
import { DEFAULT_REFERENCE_SOURCE, DEFAULT_SOURCE_IDENTIFIER } from "../sources/schemas";
import type { ValidatedOrder } from "./validate-order";

/**
 * A complete source pair that matches no activated pair of the account → 422 for the whole request
 * (it takes precedence over field errors). Matching is exact, case included; `api`/`default` always passes.
 */
export async function checkSourcePairs(
  db: Executor,
  accountId: string,
  orders: ValidatedOrder[],
  many: boolean,
): Promise<void> {
  const named = orders
    .map((o, index) => ({ o, index }))
    .filter(({ o }) => o.referenceSource !== "" && o.sourceIdentifier !== "")
    .filter(
      ({ o }) => !(o.referenceSource === DEFAULT_REFERENCE_SOURCE && o.sourceIdentifier === DEFAULT_SOURCE_IDENTIFIER),
    );
  if (named.length === 0) return;
  const active = await db
    .select({ referenceSource: sources.referenceSource, sourceIdentifier: sources.sourceIdentifier })
    .from(sources)
    .where(
      and(
        eq(sources.accountId, accountId),
        inArray(sources.referenceSource, [...new Set(named.map(({ o }) => o.referenceSource))]),
      ),
    );
  const activeKeys = new Set(active.map((s) => `${s.referenceSource}\u0000${s.sourceIdentifier}`));
  const unknown = named.filter(({ o }) => !activeKeys.has(`${o.referenceSource}\u0000${o.sourceIdentifier}`));
  if (unknown.length === 0) return;
  throw unknownSourcePairs(
    unknown.map(({ o, index }) => ({
      pair: `${o.referenceSource}/${o.sourceIdentifier}`,
      field: `${many ? `[${index}].` : ""}ReferenceSource`,
    })),
  );
}

/** Orders naming source pairs the account has not activated: each pair, and the field of its order. */
export const unknownSourcePairs = (unknown: { pair: string; field: string }[]) =>
  new AppError(
    "unknown_source",
    `Source pair ${unknown.map((u) => u.pair).join(", ")} is not activated for this account; activate it (POST /api/v2/private/sources) or omit ReferenceSource and SourceIdentifier.`,
    { errors: unknown.map(({ pair, field }) => ({ field, message: `${pair} is not an activated source pair` })) },
  );
