import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { StaffPeriodPicker, StaffStatistics } from "@/components/statistics/staff-statistics";
import { StatisticsControls } from "@/components/statistics/statistics-controls";
import { StatisticsDashboard } from "@/components/statistics/statistics-dashboard";
import {
  parseStatisticsFilters,
  periodRange,
  staffPeriod,
  statisticsInput,
} from "@/components/statistics/statistics-params";
import { StatisticsSkeleton } from "@/components/statistics/statistics-skeleton";
import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { withAccount } from "@/lib/account";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Statistics" };

export default async function StatisticsPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const [account, params] = await Promise.all([getSelectedAccount(searchParams), searchParams]);
  // Staff open an account from the switcher (or a row here); until they do, they compare the accounts.
  if (account.role === "staff" && !params.account) {
    const range = staffPeriod(params);
    void api.statistics.byAccount.prefetch({ days: range.days });
    return (
      <HydrateClient>
        <PageHeader
          title="Statistics across accounts"
          description="Every account's orders, refusals and validations over the period, the accounts refused or failing validation most on top. Open an account to see its charts."
        />
        <StaffPeriodPicker period={range.period} />
        <QueryBoundary what="statistics" fallback={<TableSkeleton rows={5} />} resetKey={range.period}>
          <StaffStatistics days={range.days} />
        </QueryBoundary>
      </HydrateClient>
    );
  }

  const filters = parseStatisticsFilters(params);
  // The account's time zone decides which days "the last 7 days" are; the server decides, so the browser asks the same.
  const settings = await api.accounts.settings({ accountId: account.id });
  const range = periodRange(filters, settings.timeZone, new Date());
  const input = statisticsInput(account.id, filters, range);
  void api.sources.list.prefetch({ accountId: account.id });
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  void api.courierProfiles.couriers.prefetch();
  void api.statistics.get.prefetch(input);
  return (
    <HydrateClient>
      <PageHeader
        title="Statistics"
        description={`Orders created, refused, delivered and returned, validations and cash on delivery of ${account.name}, per day, week or month.`}
      />
      {settings.statisticsRebuildSince ? (
        <Notice tone="warning" className="mb-6">
          The statistics are being recounted for the account&apos;s new time zone ({settings.timeZone}); until that
          finishes, some figures may be missing.{" "}
          <Link
            className="font-medium underline underline-offset-2"
            href={withAccount("/dashboard/settings", account.id)}
          >
            See the progress in Settings
          </Link>
          .
        </Notice>
      ) : null}
      <Suspense fallback={<Skeleton className="mb-6 h-40 w-full" />}>
        <StatisticsControls key={account.id} account={account} filters={filters} range={range} />
      </Suspense>
      <QueryBoundary what="statistics" fallback={<StatisticsSkeleton />} resetKey={JSON.stringify(input)}>
        <StatisticsDashboard key={account.id} account={account} input={input} />
      </QueryBoundary>
    </HydrateClient>
  );
}
