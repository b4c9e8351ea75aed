import { and, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import {
  accounts,
  apiKeys,
  courierProfiles,
  refusedAttempts,
  users,
  validationResults,
  type RefusedAttemptRow,
  type ValidationMessageRecord,
} from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { AppError } from "@/server/errors";
import { formatMillis } from "@/server/time";
import { accountAccess, type Actor } from "../authorization";
import { envelope, offsetOf, pagingInput, type Page } from "../pagination";
import { resolvingOrderId } from "./resolving-order";

export const listRefusedAttemptsInput = pagingInput.extend({
  /** Required for partners; staff may omit it to see every account. */
  accountId: z.string().optional(),
  referenceNumber: z.string().trim().max(200).optional(),
});
export type ListRefusedAttemptsInput = z.input<typeof listRefusedAttemptsInput>;

export type RefusedAttemptSummary = {
  id: string;
  accountId: string;
  accountName: string;
  created: string;
  courier: string;
  courierName: string;
  courierProfileId: string | null;
  courierProfileName: string | null;
  referenceNumber: string;
  referenceSource: string;
  sourceIdentifier: string;
  code: string;
  message: string;
  /** The order field the courier named (`Recipient.Zip`), when it named one. */
  field: string | null;
  validationResultId: string | null;
  /**
   * The request reached the courier and no answer came: the courier may have registered it (recovery settles it
   * where the courier can be asked; Packeta cannot, so the partner checks it there).
   */
  outcomeUnknown: boolean;
  /**
   * The live order a later create of the same ReferenceNumber and source pair made (`resolving-order.ts`): the refusal
   * is resolved, and sending it again would replace that order. Null while it is open.
   */
  resolvedByOrderId: string | null;
  /** Who sent it, in words: the API key's name, or the dashboard user. */
  sentBy: string;
  /** The messages of its validation that offer other values (`suggestions`), each a one-click fix in the dashboard. */
  suggestedFixes: SuggestedFix[];
};

export type SuggestedFix = Pick<ValidationMessageRecord, "code" | "field" | "message"> & {
  suggestions: { value: string; text: string }[];
};

/** Messages whose `suggestions` hold at least one well-formed `{ value, text }`, with only those kept. */
function suggestedFixesOf(messages: readonly unknown[] | null): SuggestedFix[] {
  return (messages ?? []).flatMap((m) => {
    const { code, field, message, suggestions } = m as ValidationMessageRecord & { suggestions?: unknown };
    const valid = Array.isArray(suggestions)
      ? suggestions.filter(
          (s): s is { value: string; text: string } =>
            typeof s === "object" && s !== null && typeof s.value === "string" && typeof s.text === "string",
        )
      : [];
    return valid.length
      ? [{ code, field, message, suggestions: valid.map(({ value, text }) => ({ value, text })) }]
      : [];
  });
}

/** Orders the courier refused or did not answer, newest first: one account's for its members, any or all for staff. */
export async function listRefusedAttempts(
  db: Executor,
  actor: Actor,
  raw: ListRefusedAttemptsInput,
): Promise<Page<RefusedAttemptSummary>> {
  const input = listRefusedAttemptsInput.parse(raw);
  const c: SQL[] = [];
  if (input.accountId) {
    await accountAccess(db, actor, input.accountId);
    c.push(eq(refusedAttempts.accountId, input.accountId));
  } else if (!actor.isStaff) {
    throw new AppError("bad_request", "Choose an account.", {
      errors: [{ field: "accountId", message: "required" }],
    });
  }
  if (input.referenceNumber)
    c.push(ilike(refusedAttempts.referenceNumber, `%${input.referenceNumber.replace(/[\\%_]/g, "\\$&")}%`));
  const where = c.length ? and(...c) : undefined;
  const [rows, [total]] = await Promise.all([
    selectRefusedAttempts(db)
      .where(where)
      .orderBy(desc(refusedAttempts.createdAt), desc(refusedAttempts.id))
      .limit(input.pageSize)
      .offset(offsetOf(input)),
    db.select({ n: count() }).from(refusedAttempts).where(where),
  ]);
  return envelope(
    rows.map(({ r, ...names }) => toRefusedAttemptSummary(r, names)),
    total?.n ?? 0,
    input,
  );
}

export const courierNameOf = (id: string): string => findCourier(id)?.capabilities.name ?? id;

type Names = {
  accountName: string;
  resolvedByOrderId: string | null;
  profileName: string | null;
  keyName: string | null;
  userEmail: string | null;
  messages: readonly unknown[] | null;
};

export const toRefusedAttemptSummary = (
  r: RefusedAttemptRow,
  { accountName, resolvedByOrderId, profileName, keyName, userEmail, messages }: Names,
): RefusedAttemptSummary => ({
  id: r.id,
  accountId: r.accountId,
  accountName,
  created: formatMillis(r.createdAt),
  courier: r.courier,
  courierName: courierNameOf(r.courier),
  courierProfileId: r.courierProfileId,
  courierProfileName: profileName,
  referenceNumber: r.referenceNumber,
  referenceSource: r.referenceSource,
  sourceIdentifier: r.sourceIdentifier,
  code: r.code,
  message: r.message,
  field: r.field ?? null,
  validationResultId: r.validationResultId,
  outcomeUnknown: r.outcomeUnknown,
  resolvedByOrderId,
  sentBy: keyName ? `API key “${keyName}”` : userEmail ? `${userEmail} (dashboard)` : "A removed key or user",
  suggestedFixes: suggestedFixesOf(messages),
});

/** Refused attempts with what a summary shows: the names (account, courier profile, API key or user), the resolving order. */
export const selectRefusedAttempts = (db: Executor) =>
  db
    .select({
      r: refusedAttempts,
      accountName: accounts.name,
      resolvedByOrderId: resolvingOrderId,
      profileName: courierProfiles.name,
      keyName: apiKeys.name,
      userEmail: users.email,
      messages: validationResults.messages,
    })
    .from(refusedAttempts)
    .innerJoin(accounts, eq(accounts.id, refusedAttempts.accountId))
    .leftJoin(courierProfiles, eq(courierProfiles.id, refusedAttempts.courierProfileId))
    .leftJoin(apiKeys, eq(apiKeys.id, refusedAttempts.apiKeyId))
    .leftJoin(users, eq(users.id, refusedAttempts.userId))
    .leftJoin(validationResults, eq(validationResults.id, refusedAttempts.validationResultId));
