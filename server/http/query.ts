import type { z } from "zod";
import { AppError, badField } from "@/server/errors";

/** PostgreSQL text holds no U+0000 (`%00`): refused here, naming the parameter, instead of failing a query with a 500. */
function valuesOf(url: URL, name: string): string[] {
  const values = url.searchParams.getAll(name);
  if (values.some((v) => v.includes("\u0000"))) throw badField(name, "must not contain U+0000");
  return values;
}

/**
 * Query values as arrays, with repeated keys (`?ids=a&ids=b`) and comma lists (`?ids=a,b`) meaning the
 * same. Empty items are dropped.
 */
export function queryList(url: URL, name: string): string[] {
  return valuesOf(url, name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

export function single(url: URL, name: string): string | undefined {
  const values = valuesOf(url, name);
  if (values.length > 1)
    throw new AppError("bad_request", `${name} must be given once.`, {
      errors: [{ field: name, message: "given more than once" }],
    });
  return values[0];
}

/**
 * Parses a query string with a zod object schema: `arrayKeys` take repeated and comma forms, every other
 * key must appear at most once. Errors name the parameter (`ids`, not `ids[3]`).
 */
export function parseQuery<S extends z.ZodType>(schema: S, url: URL, arrayKeys: readonly string[]): z.output<S> {
  const input: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    input[key] = arrayKeys.includes(key) ? queryList(url, key) : single(url, key);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    field: String(issue.path[0] ?? "query"),
    message: issue.message,
  }));
  throw new AppError("bad_request", errors.map((e) => `${e.field}: ${e.message}`).join("; "), { errors });
}

/** 400 naming every query parameter the route does not declare (see `RouteOptions` in `handler.ts`). */
export function rejectUnknownQuery(url: URL, allowed: readonly string[]): void {
  const unknown = [...new Set(url.searchParams.keys())].filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw unknownQueryParameters(unknown, allowed);
}

export function unknownQueryParameters(unknown: readonly string[], allowed: readonly string[]): AppError {
  const accepted = allowed.length ? `This operation accepts ${allowed.join(", ")}.` : "This operation takes none.";
  return new AppError(
    "bad_request",
    `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}. ${accepted}`,
    { errors: unknown.map((field) => ({ field, message: "is not a parameter of this operation" })) },
  );
}
