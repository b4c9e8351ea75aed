/**
 * The text a directory search matches against: lower case, accents stripped (NFD, combining marks removed), runs
 * of anything but letters and digits turned into one space. Done here rather than with PostgreSQL's `unaccent`,
 * whose rules file differs between installations and is not in every PGlite build; the same function normalizes
 * the stored column and the query, so "plzen", "PLZEŇ" and "Plzeň" all match.
 */
export function normalizeSearchText(...parts: (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .join(" ")
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/ł/g, "l")
    .replace(/ß/g, "ss")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
