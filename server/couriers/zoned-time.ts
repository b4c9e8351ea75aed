/**
 * Couriers that write local wall-clock times without a zone (Packeta: Prague time) need them as instants. The
 * offset comes from the platform's time-zone data (Intl), so summer time is right on both sides of a switch.
 */
const offsetMinutes = (at: Date, zone: string): number => {
  const name =
    new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d\d):?(\d\d)?/.exec(name);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
};

/** `2026-11-24T14:05:00` (or with a space) read as wall-clock time in `zone`; a time with its own zone is kept as is. */
export function localTimeToDate(local: string, zone: string): Date {
  const text = local.trim().replace(" ", "T");
  if (/[zZ]|[+-]\d\d:?\d\d$/.test(text)) return new Date(text);
  const asUtc = new Date(`${text}Z`);
  // The offset at the guessed instant, then once more at the corrected one (right across a DST switch).
  const first = new Date(asUtc.getTime() - offsetMinutes(asUtc, zone) * 60_000);
  return new Date(asUtc.getTime() - offsetMinutes(first, zone) * 60_000);
}

/** An instant as zone-less wall-clock time in `zone`, to the second (what such a courier writes). */
export function dateToLocalTime(at: Date, zone: string): string {
  return new Date(at.getTime() + offsetMinutes(at, zone) * 60_000).toISOString().slice(0, 19);
}
