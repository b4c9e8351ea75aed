import type { ValidationStatus } from "@/server/services/shipping-orders/validation-messages";

export const validationStatusLabel: Record<ValidationStatus, string> = { OK: "OK", WARNING: "Warning", ERROR: "Error" };

/** From best to worst. */
export const VALIDATION_STATUSES = Object.keys(validationStatusLabel) as ValidationStatus[];

export const validationStatusTone = { OK: "green", WARNING: "amber", ERROR: "red" } as const satisfies Record<
  ValidationStatus,
  string
>;
