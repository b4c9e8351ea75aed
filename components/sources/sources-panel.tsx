"use client";

import { canWrite, type AccountChoice } from "@/lib/account";
import { ReadOnlyNotice } from "@/components/dashboard/read-only-notice";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
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
          <Tr>
            <Td label="Reference source" className="font-mono">
              api
            </Td>
            <Td label="Source identifier" className="font-mono">
              default
            </Td>
            <Td label="Name">Orders that name no source</Td>
            <Td className="text-right">
              <Tooltip content="Always active: orders without ReferenceSource and SourceIdentifier use it. It cannot be deactivated.">
                <Badge tabIndex={0}>Built in</Badge>
              </Tooltip>
            </Td>
          </Tr>
          {sources.items.map((source) => (
            <Tr key={source.id}>
              <Td label="Reference source" className="font-mono">
                {source.referenceSource}
              </Td>
              <Td label="Source identifier" className="font-mono">
                {source.sourceIdentifier}
              </Td>
              <Td label="Name">{source.name ?? <span className="text-slate-500">—</span>}</Td>
              <Td className="text-right">
                {writable ? <DeactivateSourceButton accountId={account.id} source={source} /> : null}
              </Td>
            </Tr>
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
