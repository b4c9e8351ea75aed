import type { Metadata } from "next";
import Link from "next/link";
import { withAccount } from "@/lib/account";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { TableSkeleton } from "@/components/ui/skeleton";
import { NewOrderPanel, type DraftSource } from "@/components/order-form/new-order-panel";
import { MapTiles } from "@/components/pickup-points/choose-pickup-point";
import { mapTileUrl } from "@/server/pickup-points/map-tiles";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "New order" };

const one = (value: string | string[] | undefined) => (typeof value === "string" && value ? value : null);

export default async function NewOrderPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const [account, params] = await Promise.all([getSelectedAccount(searchParams), searchParams]);
  const refused = one(params.refused);
  const result = one(params.result);
  // A suggestion's one-click fix from the refused orders: the field it names set to its value (`field`, `value`).
  const field = one(params.field);
  const value = one(params.value);
  const fix = field && value !== null ? { field, value } : undefined;
  const from: DraftSource = refused ? { refused, fix } : result ? { result } : null;
  void api.courierProfiles.couriers.prefetch();
  void api.courierProfiles.list.prefetch({ accountId: account.id });
  void api.sources.list.prefetch({ accountId: account.id });
  if (refused) void api.refusedAttempts.get.prefetch({ id: refused });
  if (result) void api.validationResults.get.prefetch({ id: result });
  return (
    <HydrateClient>
      <PageHeader
        title={from ? "Fix and send again" : "New order"}
        description={
          <>
            {from
              ? "The order as it was sent. Change what the courier or the rules refused, validate it, and create it."
              : "Create a shipping order by hand."}{" "}
            It goes through the same checks as the API: a reference number already live under the same source is
            replaced, and one live under another source is refused.{" "}
            <Link className="text-blue-700 underline" href={withAccount("/dashboard/orders", account.id)}>
              Back to the orders
            </Link>
          </>
        }
      />
      <QueryBoundary what="order form" fallback={<TableSkeleton rows={6} />}>
        <MapTiles url={mapTileUrl()}>
          <NewOrderPanel
            key={`${account.id}:${refused}:${result}:${field}:${value}`}
            accountId={account.id}
            from={from}
          />
        </MapTiles>
      </QueryBoundary>
    </HydrateClient>
  );
}
