import { Badge } from "@/components/ui/badge";
import { validationStatusLabel, validationStatusTone } from "@/lib/validation-status";
import type { ValidationStatus } from "@/lib/validation-status";

/** `refused`: the rules passed but the courier refused the create (or did not answer), which is what counts. */
export function ValidationStatusBadge({ status, refused = false }: { status: ValidationStatus; refused?: boolean }) {
  if (refused) return <Badge tone="red">Refused</Badge>;
  return <Badge tone={validationStatusTone[status]}>{validationStatusLabel[status]}</Badge>;
}
