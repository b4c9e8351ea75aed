import { asc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { sources } from "@/db/schema";
import { accountAccess, type Actor } from "../authorization";
import type { SourceView } from "./schemas";

/** Activated pairs of an account (the built-in `api`/`default` is not stored and not listed here). */
export async function listSources(db: Executor, actor: Actor, accountId: string): Promise<{ items: SourceView[] }> {
  await accountAccess(db, actor, accountId);
  return { items: await listAccountSources(db, accountId) };
}

export async function listAccountSources(db: Executor, accountId: string): Promise<SourceView[]> {
  return db
    .select({
      id: sources.id,
      referenceSource: sources.referenceSource,
      sourceIdentifier: sources.sourceIdentifier,
      name: sources.name,
    })
    .from(sources)
    .where(eq(sources.accountId, accountId))
    .orderBy(asc(sources.referenceSource), asc(sources.sourceIdentifier));
}
