import { SettingsSkeleton } from "@/components/account-settings/settings-skeleton";
import { Skeleton } from "@/components/ui/skeleton";

export default function SettingsLoading() {
  return (
    <div role="status" aria-label="Loading the settings page">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="mt-2 mb-6 h-4 w-96 max-w-full" />
      <SettingsSkeleton label={false} />
    </div>
  );
}
