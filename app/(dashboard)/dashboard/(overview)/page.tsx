import type { Metadata } from "next";
import { Suspense } from "react";
import { lastDays } from "./last-days";
import { OverviewPanel } from "@/components/overview/overview-panel";
import { OverviewStats } from "@/components/overview/overview-stats";
import { StaffOverview } from "@/components/overview/staff-overview";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const [account, params] = await Promise.all([getSelectedAccount(searchParams), searchParams]);
  // Staff open an account from the switcher; until they do, the page is theirs: the failures across accounts.
  if (account.role === "staff" && !params.account) {
    void api.overview.staff.prefetch();
    return (
      <HydrateClient>
        <PageHeader
          title="Platform overview"
          description="Failures across every account in the last 7 days. Open an account from the switcher to see it as its owner does."
        />
        <QueryBoundary what="platform figures" fallback={<TableSkeleton rows={4} />}>
          <StaffOverview />
        </QueryBoundary>
      </HydrateClient>
    );
  }
  void api.apiKeys.list.prefetch({ accountId: account.id, page: 1 });
  void api.sources.list.prefetch({ accountId: account.id });
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  void api.overview.get.prefetch({ accountId: account.id });
  // Decided on the server, so the browser renders the same days it was sent (no hydration mismatch at midnight).
  const days = lastDays(7, new Date());
  return (
    <HydrateClient>
      <PageHeader
        title={account.name}
        description="How this account is connected to the shipping API, and what goes through it."
      />
      <Suspense fallback={<TableSkeleton rows={3} />}>
        <OverviewPanel key={account.id} account={account} />
      </Suspense>
      <div className="mt-8">
        <QueryBoundary
          what="account figures"
          fallback={
            <div role="status" aria-label="Loading the figures" className="grid gap-6 lg:grid-cols-2">
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} className="h-48" />
              ))}
            </div>
          }
        >
          <OverviewStats key={account.id} account={account} days={days} />
        </QueryBoundary>
      </div>
    </HydrateClient>
  );
}
