import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";

/**
 * What a dashboard page shows while its server part renders. Each section has a loading.tsx of its own rather
 * than one for the whole dashboard: an order's page has none, so a missing order answers 404 before anything
 * is streamed (once a loading state is sent, the status is already 200).
 */
export function PageLoading() {
  return (
    <div role="status" aria-label="Loading page">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="mt-2 mb-6 h-4 w-96 max-w-full" />
      <TableSkeleton />
    </div>
  );
}
