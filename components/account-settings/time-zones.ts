/**
 * The IANA time zones offered, as the server's runtime knows them (the server checks a new zone against the
 * same list), with UTC, which `Intl.supportedValuesOf` leaves out. Read on the server and handed to the form,
 * so the browser's own list (another ICU version) cannot make the options differ from what is accepted.
 */
export function timeZoneNames(): string[] {
  const names = new Set(Intl.supportedValuesOf("timeZone"));
  names.add("UTC");
  return [...names].sort();
}

/** The zones by their region ("Europe/Prague" is in Europe); zones without one (UTC) come first, alone. */
export function groupTimeZones(names: string[]): { region: string | null; zones: string[] }[] {
  const groups = new Map<string | null, string[]>();
  for (const name of names) {
    const region = name.includes("/") ? name.slice(0, name.indexOf("/")) : null;
    groups.set(region, [...(groups.get(region) ?? []), name]);
  }
  return [...groups]
    .sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : a.localeCompare(b)))
    .map(([region, zones]) => ({ region, zones }));
}
