import type { Metadata } from "next";
import { Suspense } from "react";
import { CourierProfilesPanel } from "@/components/courier-profiles/courier-profiles-panel";
import { CreateCourierProfileDialog } from "@/components/courier-profiles/create-courier-profile-dialog";
import { canWrite } from "@/lib/account";
import { PageHeader } from "@/components/ui/page-header";
import { TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Courier profiles" };

export default async function CourierProfilesPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  void api.courierProfiles.couriers.prefetch();
  return (
    <HydrateClient>
      <PageHeader
        title="Courier profiles"
        description="Each courier's default profile is used when an order names none; pass ?profile= to pick another."
        actions={
          canWrite(account) ? (
            <Suspense>
              <CreateCourierProfileDialog accountId={account.id} />
            </Suspense>
          ) : null
        }
      />
      <Suspense fallback={<TableSkeleton rows={2} />}>
        <CourierProfilesPanel key={account.id} account={account} />
      </Suspense>
    </HydrateClient>
  );
}
