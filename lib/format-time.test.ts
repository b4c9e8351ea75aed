import { describe, expect, it } from "vitest";
import { formatTime, formatTimeParts, inZone, isKnownTimeZone, UTC } from "./format-time";

describe("formatTime", () => {
  it("shows an API time (UTC without a suffix) in the zone it is given", () => {
    expect(formatTime("2026-03-01T09:30:00.000", UTC)).toBe("1 Mar 2026, 09:30");
    expect(formatTime("2026-03-01T09:30:00.000", "Europe/Prague")).toBe("1 Mar 2026, 10:30");
  });

  it("moves a time near midnight to the next or the previous day", () => {
    expect(formatTime("2026-03-01T23:30:00.000", UTC)).toBe("1 Mar 2026, 23:30");
    expect(formatTime("2026-03-01T23:30:00.000", "Europe/Prague")).toBe("2 Mar 2026, 00:30");
    expect(formatTime("2026-03-01T00:30:00.000", UTC)).toBe("1 Mar 2026, 00:30");
    expect(formatTime("2026-03-01T00:30:00.000", "Europe/Prague")).toBe("1 Mar 2026, 01:30");
    expect(formatTime("2026-03-01T00:30:00.000", "America/New_York")).toBe("28 Feb 2026, 19:30");
    // New Year in Prague while it is still the old year in UTC.
    expect(formatTime("2025-12-31T23:15:00.000", "Europe/Prague")).toBe("1 Jan 2026, 00:15");
  });

  it("follows the zone's daylight-saving changes", () => {
    // Summer time starts on 29 March 2026 at 01:00 UTC: 02:00 in Prague becomes 03:00.
    expect(formatTime("2026-03-29T00:59:00.000", "Europe/Prague")).toBe("29 Mar 2026, 01:59");
    expect(formatTime("2026-03-29T01:00:00.000", "Europe/Prague")).toBe("29 Mar 2026, 03:00");
    // It ends on 25 October 2026 at 01:00 UTC: 03:00 in Prague becomes 02:00, so 02:30 happens twice.
    expect(formatTime("2026-10-25T00:30:00.000", "Europe/Prague")).toBe("25 Oct 2026, 02:30");
    expect(formatTime("2026-10-25T01:30:00.000", "Europe/Prague")).toBe("25 Oct 2026, 02:30");
    // The same UTC hour a day before and after each change is an hour apart in Prague.
    expect(formatTime("2026-03-28T12:00:00.000", "Europe/Prague")).toBe("28 Mar 2026, 13:00");
    expect(formatTime("2026-03-30T12:00:00.000", "Europe/Prague")).toBe("30 Mar 2026, 14:00");
    expect(formatTime("2026-10-26T12:00:00.000", "Europe/Prague")).toBe("26 Oct 2026, 13:00");
  });

  it("splits a time into its day and its time of day, both in the zone", () => {
    expect(formatTimeParts("2026-03-01T23:59:00.000", UTC)).toEqual({ day: "1 Mar 2026", time: "23:59" });
    expect(formatTimeParts("2026-03-01T23:59:00.000", "Europe/Prague")).toEqual({ day: "2 Mar 2026", time: "00:59" });
  });

  it("names the zone once, for a column or a caption", () => {
    expect(inZone("Created", "Europe/Prague")).toBe("Created (Europe/Prague)");
    expect(inZone("Time", UTC)).toBe("Time (UTC)");
  });

  it("tells a zone the runtime knows from one it does not", () => {
    expect(isKnownTimeZone("Europe/Prague")).toBe(true);
    expect(isKnownTimeZone(UTC)).toBe(true);
    expect(isKnownTimeZone("Mars/Olympus_Mons")).toBe(false);
  });
});
