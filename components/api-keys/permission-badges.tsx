import { Badge } from "@/components/ui/badge";
import { API_KEY_PERMISSIONS, type ApiKeyPermission } from "@/lib/api-key-permissions";

export function PermissionBadges({ permissions }: { permissions: ApiKeyPermission[] }) {
  if (permissions.length === API_KEY_PERMISSIONS.length) return <Badge tone="green">All permissions</Badge>;
  if (permissions.length === 0) return <Badge tone="amber">None</Badge>;
  return (
    <span className="flex max-w-64 flex-wrap gap-1">
      {permissions.map((permission) => (
        <Badge key={permission} className="font-mono">
          {permission}
        </Badge>
      ))}
    </span>
  );
}
