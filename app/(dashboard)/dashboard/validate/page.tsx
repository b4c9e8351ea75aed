import type { Metadata } from "next";
import Link from "next/link";
import { withAccount } from "@/lib/account";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { TableSkeleton } from "@/components/ui/skeleton";
import { ValidatePanel } from "@/components/order-form/validate-panel";
import { MapTiles } from "@/components/pickup-points/choose-pickup-point";
import { mapTileUrl } from "@/server/pickup-points/map-tiles";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Validate" };

export default async function ValidatePage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.courierProfiles.couriers.prefetch();
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  void api.sources.list.prefetch({ accountId: account.id });
  return (
    <HydrateClient>
      <PageHeader
        title="Validate an order"
        description={
          <>
            Check an order against the courier&apos;s rules before your shop sends it, as{" "}
            <code className="text-xs">POST /couriers/{"{courier}"}/shipping-orders/validate</code> would. Nothing is
            created; the result is kept in{" "}
            <Link className="text-blue-700 underline" href={withAccount("/dashboard/validation-results", account.id)}>
              validation results
            </Link>
            .
          </>
        }
      />
      <QueryBoundary what="validation form" fallback={<TableSkeleton rows={6} />}>
        <MapTiles url={mapTileUrl()}>
          <ValidatePanel key={account.id} accountId={account.id} />
        </MapTiles>
      </QueryBoundary>
    </HydrateClient>
  );
}
