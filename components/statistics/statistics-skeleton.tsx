import { Skeleton } from "@/components/ui/skeleton";

/** The shape of the figures while they load: the totals, a chart, two smaller panels. */
export function StatisticsSkeleton() {
  return (
    <div role="status" aria-label="Loading the statistics" className="space-y-6">
      <Skeleton className="h-5 w-80 max-w-full" />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-96" />
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-64" />
        <Skeleton className="h-64" />
      </div>
    </div>
  );
}

/** The whole page while its server part renders (loading.tsx): the header, the controls and the figures. */
export function StatisticsPageSkeleton() {
  return (
    <div role="status" aria-label="Loading the statistics page">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="mt-2 mb-6 h-4 w-96 max-w-full" />
      <div className="mb-6 flex flex-wrap gap-6">
        <Skeleton className="h-16 w-72" />
        <Skeleton className="h-16 w-52" />
        <Skeleton className="h-16 w-52" />
      </div>
      <Skeleton className="mb-6 h-24 w-full" />
      <div aria-hidden className="space-y-6">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
        <Skeleton className="h-96" />
      </div>
    </div>
  );
}
