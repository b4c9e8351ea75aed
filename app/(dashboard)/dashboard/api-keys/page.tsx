import type { Metadata } from "next";
import { Suspense } from "react";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { CreateApiKeyDialog } from "@/components/api-keys/create-api-key-dialog";
import { canWrite } from "@/lib/account";
import { PageHeader } from "@/components/ui/page-header";
import { TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const account = await getSelectedAccount(searchParams);
  void api.apiKeys.list.prefetch({ accountId: account.id, page: 1 });
  return (
    <HydrateClient>
      <PageHeader
        title="API keys"
        description="Keys authenticate your systems against the shipping API. A key is shown in full only when it is created."
        actions={canWrite(account) ? <CreateApiKeyDialog accountId={account.id} /> : null}
      />
      <Suspense fallback={<TableSkeleton />}>
        <ApiKeysPanel key={account.id} account={account} />
      </Suspense>
    </HydrateClient>
  );
}
