"use client";

import { PencilLine } from "lucide-react";
import Link from "next/link";
import { withAccount } from "@/lib/account";
import { formatTime } from "@/lib/format-time";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { MessageList } from "@/components/validation-report/message-list";
import { ValidationStatusBadge } from "@/components/validation-report/validation-status-badge";
import { api } from "@/trpc/react";

/** One validation: what was sent, exactly as received, and every message the rules gave it. */
export function ResultDialog({
  id,
  showAccount,
  timeZone,
  canEdit,
  onClose,
}: {
  id: string | null;
  showAccount: boolean;
  /** The zone the list shows its times in (named in its header), so the dialog says the same time. */
  timeZone: string;
  /** Whether the user may create orders in the result's account (owners and staff). */
  canEdit: boolean;
  onClose: () => void;
}) {
  const result = api.validationResults.get.useQuery({ id: id ?? "" }, { enabled: id !== null });
  const r = result.data;
  return (
    <Dialog open={id !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent
        className="max-w-3xl"
        title={r ? `Validation of ${r.referenceNumber ?? "an order without reference"}` : "Validation result"}
      >
        {result.isPending ? (
          <div role="status" aria-label="Loading the validation result" className="space-y-3">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        ) : result.error ? (
          <Notice tone="error">
            {result.error.data?.code === "NOT_FOUND"
              ? "This validation result does not exist or belongs to another account."
              : result.error.message}
          </Notice>
        ) : r ? (
          <div className="space-y-5">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              <dt className="text-slate-500">Status</dt>
              <dd>
                <ValidationStatusBadge status={r.status} refused={r.refusal !== null} />
              </dd>
              <dt className="text-slate-500">Time</dt>
              <dd>
                {formatTime(r.created, timeZone)} ({timeZone})
              </dd>
              {showAccount ? (
                <>
                  <dt className="text-slate-500">Account</dt>
                  <dd>{r.accountName}</dd>
                </>
              ) : null}
              <dt className="text-slate-500">Operation</dt>
              <dd>{r.operation === "create" ? "Create (validated before creating)" : "Validate"}</dd>
              <dt className="text-slate-500">Courier</dt>
              <dd>{r.courierName}</dd>
            </dl>
            <section aria-labelledby="result-messages-title">
              <h3 id="result-messages-title" className="mb-2 text-sm font-semibold text-slate-900">
                {r.refusal ? "Outcome" : "Messages"}
              </h3>
              {r.refusal ? (
                <Notice tone="error">
                  {r.refusal.code === "COURIER_REJECTED" ? "Refused by the courier" : "The courier did not answer"}:{" "}
                  {r.refusal.message} Nothing was created.
                </Notice>
              ) : null}
              {r.refusal && r.messages.length === 0 ? null : <MessageList messages={r.messages} />}
            </section>
            <section aria-labelledby="result-request-title">
              <h3 id="result-request-title" className="mb-2 text-sm font-semibold text-slate-900">
                Request (JSON)
              </h3>
              <pre
                tabIndex={0}
                aria-labelledby="result-request-title"
                className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100"
              >
                {JSON.stringify(r.requestBody, null, 2)}
              </pre>
            </section>
            {canEdit ? (
              <Button asChild variant="secondary">
                <Link href={`${withAccount("/dashboard/orders/new", r.accountId)}&result=${r.id}`}>
                  <PencilLine aria-hidden className="size-4" />
                  Open in the order form
                </Link>
              </Button>
            ) : null}
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
