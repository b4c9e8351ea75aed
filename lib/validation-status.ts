/** A validated order's status, from best to worst (the database's `validation_status` enum). */
export const VALIDATION_STATUSES = ["OK", "WARNING", "ERROR"] as const;

export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

export const validationStatusLabel: Record<ValidationStatus, string> = { OK: "OK", WARNING: "Warning", ERROR: "Error" };

export const validationStatusTone = { OK: "green", WARNING: "amber", ERROR: "red" } as const satisfies Record<
  ValidationStatus,
  string
>;
