const formatter = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * API times are UTC without a zone suffix (`2026-03-01T09:30:00.000`). They are shown in UTC too, with the
 * column saying so, so a partner comparing the dashboard with API answers sees the same time.
 */
export function formatUtc(value: string): string {
  return formatter.format(new Date(`${value}Z`));
}
