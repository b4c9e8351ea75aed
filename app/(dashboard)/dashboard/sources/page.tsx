import type { Metadata } from "next";
import { Suspense } from "react";
import { SourcesPanel } from "@/components/sources/sources-panel";
import { PageHeader } from "@/components/ui/page-header";
import { TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Sources" };

export default async function SourcesPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.sources.list.prefetch({ accountId: account.id });
  return (
    <HydrateClient>
      <PageHeader
        title="Sources"
        description="The systems your orders come from. A source pair tells orders of different shops apart, so the same reference number can be used by each."
      />
      <Suspense fallback={<TableSkeleton rows={2} />}>
        <SourcesPanel key={account.id} account={account} />
      </Suspense>
    </HydrateClient>
  );
}
