"use client";

import { CircleCheck, CircleX, KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/trpc/react";

/** What each failure means, before the courier's own words. */
const FAILURES: Record<string, string> = {
  COURIER_AUTH_FAILED: "Credentials refused",
  COURIER_UNAVAILABLE: "Could not reach the courier",
  COURIER_TIMEOUT: "The courier did not answer in time",
  COURIER_REJECTED: "The courier refused the check",
};

/**
 * Asks the profile's courier whether its saved credentials work (`courierProfiles.check`) and says the answer
 * politely to screen readers: "Credentials work", or the courier's message and code. It changes nothing, so
 * every member of the account may ask.
 */
export function CheckCredentials({
  profile,
  courierName,
}: {
  profile: { id: string; name: string };
  courierName: string;
}) {
  const check = api.courierProfiles.check.useMutation();
  const result = check.data;
  const statusId = `check-${profile.id}-status`;
  return (
    <div className="space-y-1.5">
      <Button
        variant="secondary"
        size="sm"
        disabled={check.isPending}
        aria-label={`Check credentials of ${profile.name}`}
        aria-describedby={statusId}
        onClick={() => check.mutate({ id: profile.id })}
      >
        {check.isPending ? <Spinner /> : <KeyRound aria-hidden className="size-4" />}
        Check credentials
      </Button>
      {/* Always in the page, so that what appears in it is announced. */}
      <div id={statusId} role="status" aria-live="polite" className="text-xs">
        {check.isPending ? (
          <span className="text-slate-600">Asking {courierName}…</span>
        ) : check.error ? (
          <span className="flex gap-1.5 text-red-700">
            <CircleX aria-hidden className="mt-px size-3.5 shrink-0" />
            <span>{check.error.message}</span>
          </span>
        ) : result?.ok ? (
          <span className="flex gap-1.5 font-medium text-green-700">
            <CircleCheck aria-hidden className="mt-px size-3.5 shrink-0" />
            Credentials work
          </span>
        ) : result ? (
          <span className="flex gap-1.5 text-red-700">
            <CircleX aria-hidden className="mt-px size-3.5 shrink-0" />
            <span className="min-w-0 break-words">
              <span className="font-medium">{FAILURES[result.code] ?? "The check failed"}:</span> {result.message}{" "}
              <code className="rounded bg-red-50 px-1 font-mono text-[11px]">{result.code}</code>
            </span>
          </span>
        ) : null}
      </div>
    </div>
  );
}
