import type { PickupPointView } from "@/server/services/pickup-points/search-pickup-points";

const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/** ISO day of the week (1 = Monday … 7 = Sunday) of a date, in the browser's time zone. */
export const isoDay = (date: Date): number => ((date.getDay() + 6) % 7) + 1;

/** One day's hours as text: "08:00–12:00, 13:00–18:00", or "closed". */
function hoursOf(hours: PickupPointView["openingHours"], day: number): string {
  const intervals = hours.filter((h) => h.day === day).sort((a, b) => a.from.localeCompare(b.from));
  return intervals.length ? intervals.map((h) => `${h.from}–${h.to}`).join(", ") : "closed";
}

/**
 * A week of opening hours in one short line, starting today so the day that matters comes first, with runs of days
 * that keep the same hours joined: "Today–Fri 08:00–18:00 · Sat 09:00–12:00 · Sun closed · Mon–Wed 08:00–18:00".
 * An empty list (a feed that gave none) is null, so nothing is shown rather than "closed" every day.
 */
export function compactOpeningHours(hours: PickupPointView["openingHours"], today: number): string | null {
  if (hours.length === 0) return null;
  const week = Array.from({ length: 7 }, (_, i) => ((today - 1 + i) % 7) + 1);
  const label = (day: number) => (day === today ? "Today" : DAY_NAMES[day - 1]);
  const runs: { first: number; last: number; text: string }[] = [];
  for (const day of week) {
    const text = hoursOf(hours, day);
    const run = runs.at(-1);
    if (run && run.text === text) run.last = day;
    else runs.push({ first: day, last: day, text });
  }
  // The same hours all week (a locker's 00:00–23:59) read "Every day …", not "Today–Thu …".
  if (runs.length === 1) return `Every day ${runs[0]!.text}`;
  return runs
    .map((r) => `${r.first === r.last ? label(r.first) : `${label(r.first)}–${label(r.last)}`} ${r.text}`)
    .join(" · ");
}
