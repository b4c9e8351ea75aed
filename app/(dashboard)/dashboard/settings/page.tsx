import type { Metadata } from "next";
import { AccountSettings } from "@/components/account-settings/account-settings-form";
import { SettingsSkeleton } from "@/components/account-settings/settings-skeleton";
import { timeZoneNames } from "@/components/account-settings/time-zones";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.accounts.settings.prefetch({ accountId: account.id });
  return (
    <HydrateClient>
      <PageHeader
        title="Settings"
        description={`The name of ${account.name} and the time zone its statistics count days in.`}
      />
      <QueryBoundary what="account settings" fallback={<SettingsSkeleton />}>
        <AccountSettings key={account.id} account={account} timeZones={timeZoneNames()} />
      </QueryBoundary>
    </HydrateClient>
  );
}
