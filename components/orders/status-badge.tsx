import type { ShippingStatus } from "@/lib/shipping-status";
import { Badge } from "@/components/ui/badge";
import { statusLabel, statusTone } from "@/lib/shipping-status";

export function StatusBadge({ status }: { status: ShippingStatus }) {
  return <Badge tone={statusTone[status]}>{statusLabel[status]}</Badge>;
}
