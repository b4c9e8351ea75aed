import type { Db } from "@/db/client";
import { sources } from "@/db/schema";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation";
import { accountAccess, defaultAccountId, type Actor } from "../authorization";
import { recordAudit, type AuditContext } from "../audit/record-audit";
import { activateSourceInput, DEFAULT_REFERENCE_SOURCE, DEFAULT_SOURCE_IDENTIFIER, type SourceView } from "./schemas";

export const sourceConflicts = {
  builtIn: () => new AppError("conflict", "The pair api/default is built in and always active."),
  active: (pair: string) =>
    new AppError("conflict", `The pair ${pair} is already active.`, {
      errors: [{ field: "sourceIdentifier", message: "pair already active" }],
    }),
};

/** Activates a (ReferenceSource, SourceIdentifier) pair, matched exactly, case included. Active already → 409. */
export async function activateSource(
  db: Db,
  actor: Actor,
  raw: unknown,
  audit: AuditContext = {},
): Promise<SourceView> {
  const input = parseInput(activateSourceInput, raw);
  const accountId = input.accountId ?? (await defaultAccountId(db, actor));
  await accountAccess(db, actor, accountId, { write: true });
  if (input.referenceSource === DEFAULT_REFERENCE_SOURCE && input.sourceIdentifier === DEFAULT_SOURCE_IDENTIFIER) {
    throw sourceConflicts.builtIn();
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sources)
      .values({
        accountId,
        referenceSource: input.referenceSource,
        sourceIdentifier: input.sourceIdentifier,
        name: input.name || null,
      })
      .onConflictDoNothing()
      .returning({
        id: sources.id,
        referenceSource: sources.referenceSource,
        sourceIdentifier: sources.sourceIdentifier,
        name: sources.name,
      });
    if (!row) throw sourceConflicts.active(`${input.referenceSource}/${input.sourceIdentifier}`);
    await recordAudit(tx, {
      ...audit,
      accountId,
      actorUserId: actor.userId,
      action: "source.activated",
      targetId: row.id,
      details: { referenceSource: row.referenceSource, sourceIdentifier: row.sourceIdentifier },
    });
    return row;
  });
}
