/** A page's `searchParams` as Next hands them to a server component (and as they are passed on to client components). */
export type SearchParamsRecord = Record<string, string | string[] | undefined>;

/**
 * Every value of a parameter: repeated keys and comma lists mean the same, as in the REST API. Values with
 * U+0000 are dropped: PostgreSQL text cannot hold them and a link should not be able to break a page.
 */
export function paramValues(params: SearchParamsRecord, name: string): string[] {
  const raw = params[name];
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0 && !v.includes("\u0000"));
}

export const paramValue = (params: SearchParamsRecord, name: string): string => paramValues(params, name)[0] ?? "";

/** `page` as a positive whole number; anything else is the first page. */
export function pageParam(params: SearchParamsRecord): number {
  const page = Number(paramValue(params, "page"));
  return Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1;
}

/** A calendar day `yyyy-MM-dd` that exists, as `<input type="date">` gives it; anything else is "not set". */
export function dayParam(params: SearchParamsRecord, name: string): string {
  const value = paramValue(params, name);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return "";
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? value : "";
}

/** Text from a filter input: commas and line breaks separate values. */
export const splitList = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((v) => v.trim())
    .filter(Boolean);

/** Builds a query string, leaving out empty values so shared links stay short. */
export function searchOf(entries: Record<string, string | string[] | number | undefined>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(entries)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== "") search.append(key, String(v));
    }
  }
  return search;
}
