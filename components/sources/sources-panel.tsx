"use client";

import { canWrite, type AccountChoice } from "@/components/dashboard/account";
import { ReadOnlyNotice } from "@/components/dashboard/read-only-notice";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Tooltip } from "@/components/ui/tooltip";
import { api } from "@/trpc/react";
import { ActivateSourceForm } from "./activate-source-form";
import { DeactivateSourceButton } from "./deactivate-source-button";

export function SourcesPanel({ account }: { account: AccountChoice }) {
  const [sources] = api.sources.list.useSuspenseQuery({ accountId: account.id });
  const writable = canWrite(account);
  return (
    <>
      {writable ? <ActivateSourceForm accountId={account.id} /> : <ReadOnlyNotice what="sources" />}
      <Table aria-label="Active sources">
        <THead>
          <tr>
            <Th>Reference source</Th>
            <Th>Source identifier</Th>
            <Th>Name</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          <tr>
            <Td className="font-mono">api</Td>
            <Td className="font-mono">default</Td>
            <Td>Orders that name no source</Td>
            <Td className="text-right">
              <Tooltip content="Always active: orders without ReferenceSource and SourceIdentifier use it. It cannot be deactivated.">
                <Badge tabIndex={0}>Built in</Badge>
              </Tooltip>
            </Td>
          </tr>
          {sources.items.map((source) => (
            <tr key={source.id}>
              <Td className="font-mono">{source.referenceSource}</Td>
              <Td className="font-mono">{source.sourceIdentifier}</Td>
              <Td>{source.name ?? <span className="text-slate-400">—</span>}</Td>
              <Td className="text-right">
                {writable ? <DeactivateSourceButton accountId={account.id} source={source} /> : null}
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
      {sources.items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">
          No other source is active: orders that name a source pair are refused until you activate it here.
        </p>
      ) : null}
    </>
  );
}
