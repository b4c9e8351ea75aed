import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { ResultFilterForm } from "@/components/validation-history/result-filter-form";
import { resultFilters, resultListInput } from "@/lib/validation-result-filters";
import { ResultsTable } from "@/components/validation-history/results-table";
import { api, HydrateClient } from "@/trpc/server";
import { getMyAccounts, getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Validation results" };

export default async function ValidationResultsPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const [account, params] = await Promise.all([getSelectedAccount(searchParams), searchParams]);
  const staff = account.role === "staff";
  const filters = resultFilters.parse(params);
  // Staff choose among every account (what their account switcher lists too).
  const accounts = staff ? await getMyAccounts() : null;
  void api.courierProfiles.couriers.prefetch();
  void api.validationResults.list.prefetch(resultListInput(account, filters));
  const filtersKey = JSON.stringify(filters);
  return (
    <HydrateClient>
      <PageHeader
        title="Validation results"
        description={
          staff
            ? "Every validation of every account, newest first: orders validated through the API or the dashboard, and orders checked while being created."
            : "This account's validations, newest first: orders validated through the API or the dashboard, and orders checked while being created."
        }
      />
      <Suspense fallback={<Skeleton className="mb-6 h-40 w-full" />}>
        <ResultFilterForm key={filtersKey} filters={filters} accounts={accounts} />
      </Suspense>
      <QueryBoundary what="validation results" fallback={<TableSkeleton rows={6} />} resetKey={filtersKey}>
        <ResultsTable key={account.id} account={account} filters={filters} />
      </QueryBoundary>
    </HydrateClient>
  );
}
