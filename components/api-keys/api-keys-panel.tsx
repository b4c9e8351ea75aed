"use client";

import { Info, KeyRound } from "lucide-react";
import { useState, useTransition } from "react";
import { canWrite, type AccountChoice } from "@/lib/account";
import { ReadOnlyNotice } from "@/components/dashboard/read-only-notice";
import { formatTimeParts } from "@/lib/format-time";
import { useTimeZone } from "@/components/dashboard/time-zone";
import { Badge } from "@/components/ui/badge";
import { BreakableUrl } from "@/components/ui/breakable-url";
import { EmptyState } from "@/components/ui/empty-state";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { Tooltip } from "@/components/ui/tooltip";
import { api } from "@/trpc/react";
import { CreateApiKeyDialog } from "./create-api-key-dialog";
import { DuplicatePreventionSwitch } from "./duplicate-prevention-switch";
import { EditOriginsDialog } from "./edit-origins-dialog";
import { EditPermissionsDialog } from "./edit-permissions-dialog";
import { EditRateLimitDialog } from "./edit-rate-limit-dialog";
import { PermissionBadges } from "./permission-badges";
import { RevokeApiKeyButton } from "./revoke-api-key-button";

export function ApiKeysPanel({ account }: { account: AccountChoice }) {
  const [page, setPage] = useState(1);
  // Turning the page keeps the current rows on screen until the next page has loaded.
  const [, startTransition] = useTransition();
  const [keys] = api.apiKeys.list.useSuspenseQuery({ accountId: account.id, page });
  const writable = canWrite(account);
  const zone = useTimeZone(account.id);

  if (keys.itemsCount === 0) {
    return (
      <EmptyState
        icon={KeyRound}
        title="No API keys yet"
        action={writable ? <CreateApiKeyDialog accountId={account.id} /> : null}
      >
        Your e-shop or ERP sends shipping orders with an API key. Create one for each system that connects, so you can
        revoke them one by one.
      </EmptyState>
    );
  }

  return (
    <>
      {writable ? null : <ReadOnlyNotice what="API keys" />}
      {/* Said once for both time columns, not in their headers: seven columns must fit beside the menu at 1280 px. */}
      <p className="mb-2 text-sm text-slate-600">Times are in {zone}.</p>
      <Table>
        <THead>
          <tr>
            <Th>Name and key</Th>
            <Th className="whitespace-normal">Created</Th>
            <Th className="whitespace-normal">Last used</Th>
            <Th>Permissions</Th>
            <Th>Rate limit</Th>
            <Th>
              <span className="inline-flex items-center gap-1">
                Duplicates
                <Tooltip content="When on, an order whose reference number is already used by an order from another source is refused (409).">
                  <button
                    type="button"
                    className="rounded text-slate-500 hover:text-slate-700"
                    aria-label="About duplicate prevention"
                  >
                    <Info aria-hidden className="size-3.5" />
                  </button>
                </Tooltip>
              </span>
            </Th>
            {writable ? (
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            ) : null}
          </tr>
        </THead>
        <TBody>
          {keys.items.map((key) => (
            <Tr key={key.id}>
              <Td>
                <span className="block font-medium wrap-anywhere text-slate-900">{key.name}</span>
                <span className="mt-0.5 flex flex-wrap items-center gap-1.5">
                  <span className="font-mono text-xs whitespace-nowrap text-slate-500">{key.key}</span>
                  <Badge tone={key.kind === "publishable" ? "blue" : "neutral"}>
                    {key.kind === "publishable" ? "Publishable" : "Secret"}
                  </Badge>
                </span>
              </Td>
              <Td label="Created">
                <Stamp at={key.created} zone={zone} />
              </Td>
              <Td label="Last used">
                {key.lastUsed ? <Stamp at={key.lastUsed} zone={zone} /> : <span className="text-slate-500">Never</span>}
              </Td>
              <Td label="Permissions">
                {key.kind === "publishable" ? (
                  <div className="text-xs text-slate-700">
                    <p>Pickup-point search from</p>
                    <div className="flex items-start gap-1.5">
                      <ul className="mt-0.5 min-w-0 font-mono" aria-label="Allowed origins">
                        {key.allowedOrigins.map((origin) => (
                          <li key={origin}>
                            <BreakableUrl url={origin} />
                          </li>
                        ))}
                      </ul>
                      {writable ? <EditOriginsDialog accountId={account.id} apiKey={key} /> : null}
                    </div>
                  </div>
                ) : (
                  <span className="flex flex-wrap items-center gap-1.5">
                    <PermissionBadges permissions={key.permissions} />
                    {writable ? <EditPermissionsDialog accountId={account.id} apiKey={key} /> : null}
                  </span>
                )}
              </Td>
              <Td label="Rate limit">
                <span className="flex flex-wrap items-center gap-1.5">
                  <span className="whitespace-nowrap tabular-nums">
                    {key.rateLimitPerMinute.toLocaleString("en-US")}/min
                  </span>
                  {writable ? <EditRateLimitDialog accountId={account.id} apiKey={key} /> : null}
                </span>
              </Td>
              <Td label="Duplicate prevention">
                {key.kind === "publishable" ? (
                  <span className="text-slate-500">Not applicable</span>
                ) : writable ? (
                  <DuplicatePreventionSwitch accountId={account.id} apiKey={key} />
                ) : (
                  <Badge tone={key.preventDuplicateOrders ? "blue" : "neutral"}>
                    {key.preventDuplicateOrders ? "Prevented" : "Allowed"}
                  </Badge>
                )}
              </Td>
              {writable ? (
                <Td className="text-right">
                  <RevokeApiKeyButton accountId={account.id} apiKey={key} />
                </Td>
              ) : null}
            </Tr>
          ))}
        </TBody>
      </Table>
      <Pager label="API key pages" envelope={keys} onPage={(next) => startTransition(() => setPage(next))} />
    </>
  );
}

/**
 * A time in the account's zone that may break between its day and its time of day, never inside either: two such columns kept on one
 * line each made the keys table wider than a 1280 px screen once the account had a few keys of both kinds.
 */
function Stamp({ at, zone }: { at: string; zone: string }) {
  const { day, time } = formatTimeParts(at, zone);
  // One element: on a phone the cell is a flex row, whose gap would widen the space between two.
  return (
    <span>
      <span className="whitespace-nowrap">{day},</span> <span className="whitespace-nowrap">{time}</span>
    </span>
  );
}
