import { Skeleton } from "@/components/ui/skeleton";

/** The form's shape while the settings load; `label: false` inside a status that already says "Loading". */
export function SettingsSkeleton({ label = true }: { label?: boolean }) {
  return (
    <div
      {...(label ? { role: "status", "aria-label": "Loading the settings" } : {})}
      className="max-w-2xl space-y-5 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <Skeleton className="h-5 w-24" />
      <Skeleton className="h-14 w-full" />
      <Skeleton className="h-14 w-full" />
      <Skeleton className="h-9 w-20" />
    </div>
  );
}
