/**
 * Calendar days as the statistics count them: `yyyy-MM-dd` strings, worked on as UTC dates so no local
 * clock or daylight saving shift moves them. Shared by the server page (which decides "today") and the browser.
 */

import { addDays, dayIn } from "@/lib/calendar-days";

const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date) => date.toISOString().slice(0, 10);

export { addDays, daysBetween } from "@/lib/calendar-days";

/** The day `now` falls on in `timeZone` (the account's), so "the last 7 days" end on the account's today. */
export const todayIn = (timeZone: string, now: Date): string => dayIn(timeZone, now);

export type Grouping = "day" | "week" | "month";

/** The first day of the period `day` is in: itself, its week's Monday, or its month's 1st (as the service groups). */
export function periodStart(day: string, groupBy: Grouping): string {
  if (groupBy === "day") return day;
  if (groupBy === "month") return `${day.slice(0, 7)}-01`;
  return addDays(day, -((toDate(day).getUTCDay() + 6) % 7));
}

/** Every period from the one `from` is in to the one `to` is in, so a chart has a bar (maybe empty) for each. */
export function periodsBetween(from: string, to: string, groupBy: Grouping): string[] {
  const periods: string[] = [];
  let current = periodStart(from, groupBy);
  // A guard, not a limit the page reaches: the service answers at most 367 days.
  while (current <= to && periods.length < 1000) {
    periods.push(current);
    if (groupBy === "day") current = addDays(current, 1);
    else if (groupBy === "week") current = addDays(current, 7);
    else {
      const date = toDate(current);
      date.setUTCMonth(date.getUTCMonth() + 1);
      current = toDay(date);
    }
  }
  return periods;
}

const formats = {
  day: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }),
  dayLong: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }),
  month: new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" }),
  monthLong: new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }),
};

/** A period for an axis tick ("3 Mar", "Mar 2026"): a week is named by its Monday. */
export function shortPeriod(period: string, groupBy: Grouping): string {
  return groupBy === "month" ? formats.month.format(toDate(period)) : formats.day.format(toDate(period));
}

/** A period for a table row or a tooltip ("3 Mar 2026", "Week of 2 Mar 2026", "March 2026"). */
export function longPeriod(period: string, groupBy: Grouping): string {
  if (groupBy === "month") return formats.monthLong.format(toDate(period));
  const day = formats.dayLong.format(toDate(period));
  return groupBy === "week" ? `Week of ${day}` : day;
}

/** A day as text ("3 Mar 2026"). */
export const longDay = (day: string): string => formats.dayLong.format(toDate(day));

/**
 * Two days as one range ("22–28 Nov 2026", "30 Oct – 28 Nov 2026", "30 Dec 2025 – 3 Jan 2026"), put together from
 * the parts rather than by `Intl.DateTimeFormat.formatRange`: its spaces and dashes differ between ICU versions
 * (Node's U+2009 around the dash, Chromium's none), so a page rendered on the server did not hydrate in the browser.
 */
export function dayRange(from: string, to: string): string {
  if (from === to) return longDay(from);
  const [a, b] = [toDate(from), toDate(to)];
  const sameYear = a.getUTCFullYear() === b.getUTCFullYear();
  if (sameYear && a.getUTCMonth() === b.getUTCMonth()) return `${a.getUTCDate()}–${longDay(to)}`;
  return `${sameYear ? formats.day.format(a) : longDay(from)} – ${longDay(to)}`;
}
