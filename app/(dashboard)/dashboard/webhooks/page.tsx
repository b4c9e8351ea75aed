import type { Metadata } from "next";
import { Suspense } from "react";
import { canWrite } from "@/lib/account";
import { PageHeader } from "@/components/ui/page-header";
import { TableSkeleton } from "@/components/ui/skeleton";
import { CreateWebhookDialog } from "@/components/webhooks/create-webhook-dialog";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.webhooks.list.prefetch({ accountId: account.id, page: 1 });
  return (
    <HydrateClient>
      <PageHeader
        title="Webhooks"
        description="Order events pushed to your systems as they happen, signed with the Standard Webhooks scheme and retried until they are received."
        actions={canWrite(account) ? <CreateWebhookDialog accountId={account.id} /> : null}
      />
      <Suspense fallback={<TableSkeleton />}>
        <WebhooksPanel key={account.id} account={account} />
      </Suspense>
    </HydrateClient>
  );
}
