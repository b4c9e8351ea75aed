const formatter = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dayFormatter = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const timeFormatter = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });

/**
 * API times are UTC without a zone suffix (`2026-03-01T09:30:00.000`). They are shown in UTC too, with the
 * column saying so, so a partner comparing the dashboard with API answers sees the same time.
 */
export function formatUtc(value: string): string {
  return formatter.format(new Date(`${value}Z`));
}

/** The same time as its day and its time of day ("1 Mar 2026", "09:30"), for a layout that may break between them. */
export function formatUtcParts(value: string): { day: string; time: string } {
  const at = new Date(`${value}Z`);
  return { day: dayFormatter.format(at), time: timeFormatter.format(at) };
}
