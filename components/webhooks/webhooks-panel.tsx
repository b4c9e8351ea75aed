"use client";

import { ChevronDown, Webhook } from "lucide-react";
import { useState, useTransition } from "react";
import { canWrite, type AccountChoice } from "@/lib/account";
import { ReadOnlyNotice } from "@/components/dashboard/read-only-notice";
import { formatTime, inZone } from "@/lib/format-time";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Pager } from "@/components/ui/pager";
import { api } from "@/trpc/react";
import { CreateWebhookDialog } from "./create-webhook-dialog";
import { DeliveryLog } from "./delivery-log";
import { DeleteEndpointButton, EnabledSwitch, RotateSecretButton, SendTestButton } from "./endpoint-actions";
import { eventTypeLabels } from "@/lib/event-types";

export function WebhooksPanel({ account }: { account: AccountChoice }) {
  const [page, setPage] = useState(1);
  const [, startTransition] = useTransition();
  const [endpoints] = api.webhooks.list.useSuspenseQuery({ accountId: account.id, page });
  const writable = canWrite(account);

  if (endpoints.itemsCount === 0) {
    return (
      <EmptyState
        icon={Webhook}
        title="No webhook endpoints yet"
        action={writable ? <CreateWebhookDialog accountId={account.id} /> : null}
      >
        Add your e-shop&apos;s or ERP&apos;s URL to have order events (created, status changed, cancelled, refused by
        the courier) pushed to it as they happen, instead of polling.
      </EmptyState>
    );
  }

  return (
    <>
      {writable ? null : <ReadOnlyNotice what="webhook endpoints" />}
      <ul className="space-y-4">
        {endpoints.items.map((endpoint) => (
          <EndpointCard key={endpoint.id} accountId={account.id} endpoint={endpoint} writable={writable} />
        ))}
      </ul>
      <Pager label="Endpoint pages" envelope={endpoints} onPage={(next) => startTransition(() => setPage(next))} />
    </>
  );
}

type Endpoint = Awaited<ReturnType<ReturnType<typeof api.useUtils>["webhooks"]["list"]["fetch"]>>["items"][number];

function EndpointCard({ accountId, endpoint, writable }: { accountId: string; endpoint: Endpoint; writable: boolean }) {
  const [showLog, setShowLog] = useState(false);
  const logId = `deliveries-${endpoint.id}`;
  const zone = useTimeZone(accountId);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-label={`Endpoint ${endpoint.url}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{endpoint.url}</p>
          {endpoint.description ? <p className="mt-0.5 text-sm text-slate-600">{endpoint.description}</p> : null}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {endpoint.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Disabled</Badge>}
          {writable ? <EnabledSwitch accountId={accountId} endpoint={endpoint} /> : null}
        </div>
      </div>
      {endpoint.disabledReason ? <p className="mt-2 text-sm text-red-700">{endpoint.disabledReason}</p> : null}
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-slate-500">Event types</dt>
          <dd className="mt-1 flex flex-wrap gap-1">
            {endpoint.eventTypes.map((t) => (
              <Badge key={t} tone="blue">
                {eventTypeLabels[t]}
              </Badge>
            ))}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Source pairs</dt>
          <dd className="mt-1 flex flex-wrap gap-1">
            {endpoint.sources ? (
              endpoint.sources.map((p) => (
                <Badge key={`${p.referenceSource}/${p.sourceIdentifier}`} className="font-mono">
                  {p.referenceSource}/{p.sourceIdentifier}
                </Badge>
              ))
            ) : (
              <span className="text-slate-900">Every pair</span>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{inZone("Last success", zone)}</dt>
          <dd className="mt-1 text-slate-900">
            {endpoint.lastSuccess ? formatTime(endpoint.lastSuccess, zone) : "Never"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Failure streak</dt>
          <dd className={endpoint.failureStreak > 0 ? "mt-1 font-medium text-red-700" : "mt-1 text-slate-900"}>
            {endpoint.failureStreak === 0 ? "None" : `${endpoint.failureStreak} failed attempts`}
          </dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog((v) => !v)}
        >
          <ChevronDown aria-hidden className={showLog ? "size-4 rotate-180" : "size-4"} />
          Deliveries
        </Button>
        {writable ? (
          <>
            <SendTestButton accountId={accountId} endpoint={endpoint} />
            <RotateSecretButton endpoint={endpoint} />
            <span className="sm:ml-auto">
              <DeleteEndpointButton accountId={accountId} endpoint={endpoint} />
            </span>
          </>
        ) : null}
      </div>
      {showLog ? (
        <div id={logId} className="mt-4">
          <DeliveryLog endpointId={endpoint.id} writable={writable} timeZone={zone} />
        </div>
      ) : null}
    </li>
  );
}
