import { Badge } from "@/components/ui/badge";
import type { ValidationStatus } from "@/server/services/shipping-orders/validation-messages";

const tone = { OK: "green", WARNING: "amber", ERROR: "red" } as const;
const label = { OK: "OK", WARNING: "Warning", ERROR: "Error" } as const;

/** `refused`: the rules passed but the courier refused the create (or did not answer), which is what counts. */
export function ValidationStatusBadge({ status, refused = false }: { status: ValidationStatus; refused?: boolean }) {
  if (refused) return <Badge tone="red">Refused</Badge>;
  return <Badge tone={tone[status]}>{label[status]}</Badge>;
}
