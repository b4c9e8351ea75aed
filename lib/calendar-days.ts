/**
 * Calendar days as the statistics count them: `yyyy-MM-dd` strings, worked on as UTC dates so that no local clock or
 * daylight-saving shift moves them. Shared by the statistics service and the dashboard.
 */

/** `yyyy-MM-dd` of the calendar day `instant` falls on in `timeZone`. */
export function dayIn(timeZone: string, instant: Date): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year").padStart(4, "0")}-${part("month")}-${part("day")}`;
}

/** Days since 1970-01-01; setUTCFullYear, as `Date.UTC` would read the years 0..99 as 1900..1999. */
const dayNumber = (day: string): number => {
  const [y, m, d] = day.split("-").map(Number);
  const date = new Date(0);
  date.setUTCFullYear(y!, m! - 1, d!);
  return Math.round(date.getTime() / 86_400_000);
};

export const addDays = (day: string, days: number): string => {
  const date = new Date((dayNumber(day) + days) * 86_400_000);
  return `${String(date.getUTCFullYear()).padStart(4, "0")}-${date.toISOString().slice(5, 10)}`;
};

/** Whole days from `from` to `to` (0 for the same day). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);
