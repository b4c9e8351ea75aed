import { AppError } from "@/server/errors";

/**
 * Query values as arrays, with repeated keys (`?ids=a&ids=b`) and comma lists (`?ids=a,b`) meaning the
 * same. Empty items are dropped.
 */
export function queryList(url: URL, name: string): string[] {
  return url.searchParams
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** Parses a query into a zod-friendly record: every key to an array of values (see `queryList`). */
export function queryRecord(url: URL): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of new Set(url.searchParams.keys())) out[key] = queryList(url, key);
  return out;
}

export function single(url: URL, name: string): string | undefined {
  const values = url.searchParams.getAll(name);
  if (values.length > 1) throw new AppError("bad_request", `${name} must be given once.`, { errors: [{ field: name, message: "given more than once" }] });
  return values[0];
}
