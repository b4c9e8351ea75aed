import { describe, expect, it } from "vitest";
import { formatUtc, formatUtcParts } from "./format-utc";

describe("formatUtc", () => {
  it("shows an API time in UTC, whole or as its day and time of day", () => {
    expect(formatUtc("2026-03-01T09:30:00.000")).toBe("1 Mar 2026, 09:30");
    expect(formatUtcParts("2026-03-01T23:59:00.000")).toEqual({ day: "1 Mar 2026", time: "23:59" });
  });
});
