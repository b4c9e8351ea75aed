import { z } from "zod";
import { fieldPath } from "@/server/validation";

export const messageSchema = z.object({
  code: z
    .string()
    .describe(
      "e.g. REQUIRED, INVALID_FORMAT, TOO_LONG, OUT_OF_RANGE, UNSUPPORTED_COUNTRY, WEIGHT_LIMIT_EXCEEDED, COD_NOT_SUPPORTED, SOURCE_PAIR_INCOMPLETE, DUPLICATE_IN_REQUEST, NO_RECIPIENT_CONTACT (warning). " +
        "Pickup points (Packeta PICKUP_POINT, PPL PARCELSHOP; with `suggestions`): PICKUP_POINT_UNKNOWN, PICKUP_POINT_CLOSED, " +
        "PICKUP_POINT_COUNTRY (at PickupPoint), PICKUP_POINT_NO_COD (CodPrice), PICKUP_POINT_TOO_HEAVY (Parcels[i].Weight), " +
        "PICKUP_POINT_TOO_LARGE (Parcels[i]); warning PICKUP_POINT_NOT_VERIFIED while the courier's directory was never synced. " +
        "Packeta HOME against its carrier: CARRIER_UNKNOWN, CARRIER_UNAVAILABLE (Recipient.Country), REQUIRED (Recipient.Phone, " +
        "Recipient.Email, a house number in Recipient.Street, Parcels[i] size), COD_NOT_SUPPORTED, WEIGHT_LIMIT_EXCEEDED; " +
        "warning CARRIER_NOT_VERIFIED while Packeta's carrier list was never synced",
    ),
  severity: z.enum(["ERROR", "WARNING"]),
  field: z.string().nullable().describe("Path of the field at fault, e.g. `Recipient.Zip` or `Parcels[0].Weight`."),
  message: z.string(),
  suggestions: z
    .array(
      z.object({
        value: z.string().describe("A value the field could take instead (a pickup point's id)"),
        text: z.string().describe("What it is, for a person (a point's name, address and distance)"),
      }),
    )
    .optional()
    .describe(
      "Values the field could take instead, best first (pickup points: up to 3 nearest that would accept the order)",
    ),
});

export type ValidationMessage = z.infer<typeof messageSchema>;
export type ValidationStatus = "OK" | "WARNING" | "ERROR";

export const validationResponseSchema = z.object({
  status: z.enum(["OK", "WARNING", "ERROR"]),
  referenceNumber: z.string().nullable(),
  messages: z.array(messageSchema),
});

export type ValidationResponse = z.infer<typeof validationResponseSchema>;

export const statusOf = (messages: readonly ValidationMessage[]): ValidationStatus =>
  messages.some((m) => m.severity === "ERROR")
    ? "ERROR"
    : messages.some((m) => m.severity === "WARNING")
      ? "WARNING"
      : "OK";

export const error = (code: string, field: string | null, message: string): ValidationMessage => ({
  code,
  severity: "ERROR",
  field,
  message,
});

/** Maps a zod issue to the contract's message code. */
function codeOf(issue: z.core.$ZodIssue, input: unknown): string {
  const custom = (issue as { params?: { code?: string } }).params?.code;
  if (custom) return custom;
  switch (issue.code) {
    case "invalid_type":
      return input === undefined || input === null ? "REQUIRED" : "INVALID_FORMAT";
    case "too_small":
      if (issue.origin === "string") return "REQUIRED";
      return "OUT_OF_RANGE";
    case "too_big":
      return issue.origin === "string" ? "TOO_LONG" : "OUT_OF_RANGE";
    default:
      return "INVALID_FORMAT";
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describe(issue: z.core.$ZodIssue, code: string): string {
  if (code === "REQUIRED" && issue.code !== "custom") return "is required";
  if (issue.code === "too_big" && issue.origin === "string")
    return `must have at most ${String(issue.maximum)} characters`;
  if (issue.code === "too_small" && issue.origin === "array")
    return `must have at least ${String(issue.minimum)} item(s)`;
  if (issue.code === "too_big" && issue.origin === "array") return `must have at most ${String(issue.maximum)} items`;
  if (issue.code === "too_small" && issue.origin === "number")
    return issue.inclusive ? `must be at least ${String(issue.minimum)}` : `must be more than ${String(issue.minimum)}`;
  if (issue.code === "too_big" && issue.origin === "number") return `must be at most ${String(issue.maximum)}`;
  if (issue.code === "invalid_type") return `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
  return issue.message;
}

export function messagesFromZod(error: z.ZodError, input: unknown): ValidationMessage[] {
  return error.issues.map((issue) => {
    const code = codeOf(issue, valueAt(input, issue.path));
    const field = fieldPath(issue.path);
    return { code, severity: "ERROR" as const, field, message: `${field} ${describe(issue, code)}` };
  });
}
