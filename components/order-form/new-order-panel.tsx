"use client";

import { withFieldValue } from "@/lib/order-form/suggestions";
import { api } from "@/trpc/react";
import { ValidatePanel } from "./validate-panel";

/** Where the order form starts: a refused attempt or a validation result (the order as sent), or empty. */
export type DraftSource = { refused: string; fix?: FieldFix } | { result: string } | null;

/** One field of the order set to a value before the form opens: a suggestion chosen in the refused orders. */
export type FieldFix = { field: string; value: string };

function RefusedDraft({ accountId, id, fix }: { accountId: string; id: string; fix?: FieldFix }) {
  const [attempt] = api.refusedAttempts.get.useSuspenseQuery({ id });
  const request = fix ? withFieldValue(attempt.request, fix.field, fix.value) : attempt.request;
  return (
    <ValidatePanel
      accountId={accountId}
      canCreate
      draft={{ courierId: attempt.courier, profileId: attempt.courierProfileId, request }}
    />
  );
}

function ResultDraft({ accountId, id }: { accountId: string; id: string }) {
  const [result] = api.validationResults.get.useSuspenseQuery({ id });
  return (
    <ValidatePanel
      accountId={accountId}
      canCreate
      draft={{ courierId: result.courier, profileId: result.courierProfileId, request: result.requestBody }}
    />
  );
}

export function NewOrderPanel({ accountId, from }: { accountId: string; from: DraftSource }) {
  if (from && "refused" in from) return <RefusedDraft accountId={accountId} id={from.refused} fix={from.fix} />;
  if (from && "result" in from) return <ResultDraft accountId={accountId} id={from.result} />;
  return <ValidatePanel accountId={accountId} canCreate />;
}
