import type { z } from "zod";
import { AppError, type FieldError } from "@/server/errors";

/** `Recipient.Zip`, `Parcels[0].Weight`: a path a UI or a partner can point at. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "body";
}

/** One error per field; an unknown key is named by its own path (`settings.colour`), not its object's. */
export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: fieldPath([...issue.path, key]), message: `unknown key "${key}"` }))
      : [{ field: fieldPath(issue.path), message: issue.message }],
  );
}

/** Parses input with a zod schema; failure is a 400 naming every field at fault. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = zodFieldErrors(result.error);
  throw new AppError("bad_request", errors.map((e) => `${e.field}: ${e.message}`).join("; "), { errors });
}

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
