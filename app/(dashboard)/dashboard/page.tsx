import type { Metadata } from "next";
import { Suspense } from "react";
import { OverviewPanel } from "@/components/overview/overview-panel";
import { PageHeader } from "@/components/ui/page-header";
import { TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.apiKeys.list.prefetch({ accountId: account.id, page: 1 });
  void api.sources.list.prefetch({ accountId: account.id });
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  return (
    <HydrateClient>
      <PageHeader title={account.name} description="How this account is connected to the shipping API." />
      <Suspense fallback={<TableSkeleton rows={3} />}>
        <OverviewPanel key={account.id} account={account} />
      </Suspense>
    </HydrateClient>
  );
}
