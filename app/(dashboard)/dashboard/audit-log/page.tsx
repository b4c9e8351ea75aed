import { ShieldAlert } from "lucide-react";
import type { Metadata } from "next";
import { AuditLogTable } from "@/components/audit-log/audit-log-table";
import { pageParam } from "@/lib/search-params";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { QueryBoundary } from "@/components/ui/query-boundary";
import { TableSkeleton } from "@/components/ui/skeleton";
import { api, HydrateClient } from "@/trpc/server";
import { getSelectedAccount, type DashboardSearchParams } from "@/trpc/selected-account";

export const metadata: Metadata = { title: "Audit log" };

function OwnersOnly({ accountName }: { accountName: string }) {
  return (
    <EmptyState icon={ShieldAlert} title="Only owners can see the audit log">
      The audit log shows who changed the integration of {accountName}, and from which address. Ask an owner of the
      account if you need to know.
    </EmptyState>
  );
}

export default async function AuditLogPage({ searchParams }: { searchParams: DashboardSearchParams }) {
  const [account, params] = await Promise.all([getSelectedAccount(searchParams), searchParams]);
  const page = pageParam(params);
  const header = (
    <PageHeader
      title="Audit log"
      description="Changes to API keys, sources and courier profiles, and sign-ins: who, when and from where."
    />
  );
  // Members are told plainly rather than shown an error; the service refuses them anyway.
  if (account.role === "member") {
    return (
      <>
        {header}
        <OwnersOnly accountName={account.name} />
      </>
    );
  }
  void api.auditEvents.list.prefetch({ accountId: account.id, page });
  return (
    <HydrateClient>
      {header}
      <QueryBoundary
        what="audit log"
        fallback={<TableSkeleton rows={8} />}
        resetKey={String(page)}
        forbidden={<OwnersOnly accountName={account.name} />}
      >
        <AuditLogTable key={account.id} accountId={account.id} page={page} />
      </QueryBoundary>
    </HydrateClient>
  );
}
