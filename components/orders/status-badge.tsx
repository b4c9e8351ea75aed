import type { ShippingStatus } from "@/db/schema";
import { Badge } from "@/components/ui/badge";
import { statusLabel, statusTone } from "@/lib/shipping-status";

export function StatusBadge({ status }: { status: ShippingStatus }) {
  return <Badge tone={statusTone[status]}>{statusLabel[status]}</Badge>;
}
