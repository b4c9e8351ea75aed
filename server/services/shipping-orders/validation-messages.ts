import { z } from "zod";
import { messageSchema, type ValidationMessage } from "@/lib/validation-message";
import { VALIDATION_STATUSES, type ValidationStatus } from "@/lib/validation-status";
import { fieldPath } from "@/server/validation";

export const validationResponseSchema = z.object({
  status: z.enum(VALIDATION_STATUSES),
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
