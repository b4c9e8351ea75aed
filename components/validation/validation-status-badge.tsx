import { Badge } from "@/components/ui/badge";
import type { ValidationStatus } from "@/server/services/shipping-orders/validation-messages";

const tone = { OK: "green", WARNING: "amber", ERROR: "red" } as const;
const label = { OK: "OK", WARNING: "Warning", ERROR: "Error" } as const;

export function ValidationStatusBadge({ status }: { status: ValidationStatus }) {
  return <Badge tone={tone[status]}>{label[status]}</Badge>;
}
