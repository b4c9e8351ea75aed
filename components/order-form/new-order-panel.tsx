"use client";

import { api } from "@/trpc/react";
import { ValidatePanel } from "./validate-panel";

/** Where the order form starts: a refused attempt or a validation result (the order as sent), or empty. */
export type DraftSource = { refused: string } | { result: string } | null;

function RefusedDraft({ accountId, id }: { accountId: string; id: string }) {
  const [attempt] = api.refusedAttempts.get.useSuspenseQuery({ id });
  return (
    <ValidatePanel
      accountId={accountId}
      canCreate
      draft={{ courierId: attempt.courier, profileId: attempt.courierProfileId, request: attempt.request }}
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
  if (from && "refused" in from) return <RefusedDraft accountId={accountId} id={from.refused} />;
  if (from && "result" in from) return <ResultDraft accountId={accountId} id={from.result} />;
  return <ValidatePanel accountId={accountId} canCreate />;
}
