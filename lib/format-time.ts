/**
 * API times are UTC without a zone suffix (`2026-03-01T09:30:00.000`); the API stays so. The dashboard shows them in
 * the selected account's time zone (an IANA name such as `Europe/Prague`, the zone its statistics count days in), and
 * names that zone once per table or page rather than in every cell. The zone comes from the server
 * (`components/dashboard/time-zone.tsx`), never from the browser, so the server and the browser write the same text.
 */

/** The zone for times no single account owns (staff lists across accounts), and for an unknown or unset zone. */
export const UTC = "UTC";

type Style = "whole" | "day" | "time";

const options: Record<Style, Intl.DateTimeFormatOptions> = {
  whole: { dateStyle: "medium", timeStyle: "short" },
  day: { dateStyle: "medium" },
  time: { timeStyle: "short" },
};

// Intl formatters are costly to make and a table formats many times in one zone: one per style and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(style: Style, timeZone: string): Intl.DateTimeFormat {
  const key = `${style} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat("en-GB", { ...options[style], timeZone });
    formatters.set(key, made);
  }
  return made;
}

/** Whether the runtime knows `timeZone`; a zone it does not know is shown as UTC (and named so). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter("whole", timeZone);
    return true;
  } catch {
    return false;
  }
}

const instant = (value: string): Date => new Date(`${value}Z`);

/** An API time in `timeZone`: "1 Mar 2026, 10:30" for `2026-03-01T09:30:00.000` in Europe/Prague. */
export function formatTime(value: string, timeZone: string): string {
  return formatter("whole", timeZone).format(instant(value));
}

/** The same time as its day and its time of day ("1 Mar 2026", "10:30"), for a layout that may break between them. */
export function formatTimeParts(value: string, timeZone: string): { day: string; time: string } {
  const at = instant(value);
  return { day: formatter("day", timeZone).format(at), time: formatter("time", timeZone).format(at) };
}

/** A column's or a caption's name with the zone its times are in: "Created (Europe/Prague)". */
export const inZone = (label: string, timeZone: string): string => `${label} (${timeZone})`;
