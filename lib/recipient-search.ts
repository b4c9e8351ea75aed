import type { SearchParamsRecord } from "./search-params";

/**
 * The orders list's `recipient` search: at least 3 characters (one trigram, what its index needs to narrow anything)
 * and at most 100 (a recipient name's length), counted after trimming. The REST list's schema and the dashboard's
 * search field both read these.
 */
export const RECIPIENT_SEARCH = { min: 3, max: 100 } as const;

/**
 * `?recipient=` as the orders page reads it: one text, trimmed, not split at commas (a name may hold one), at most
 * the search's length, without U+0000 (PostgreSQL text cannot hold it). A text too short is kept: the list refuses it
 * with a message naming the parameter rather than silently listing everything.
 */
export function recipientParam(params: SearchParamsRecord): string {
  const raw = params.recipient;
  const value = Array.isArray(raw) ? raw[0] : raw;
  return (value ?? "").replaceAll("\u0000", "").trim().slice(0, RECIPIENT_SEARCH.max);
}

/**
 * What typing `text` in the search field asks of the URL: the trimmed text to search for, `""` to stop searching,
 * or `null` while it is too short to search (the list stays as it is until more is typed).
 */
export function recipientSearchOf(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  return trimmed.length < RECIPIENT_SEARCH.min ? null : trimmed.slice(0, RECIPIENT_SEARCH.max);
}
