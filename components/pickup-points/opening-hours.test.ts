import { describe, expect, it } from "vitest";
import { compactOpeningHours } from "./opening-hours";

const weekdays = (from: string, to: string) => [1, 2, 3, 4, 5].map((day) => ({ day, from, to }));

describe("compactOpeningHours", () => {
  it("starts today and joins runs of days with the same hours", () => {
    const hours = [...weekdays("08:00", "18:00"), { day: 6, from: "09:00", to: "12:00" }];
    expect(compactOpeningHours(hours, 4)).toBe(
      "Today–Fri 08:00–18:00 · Sat 09:00–12:00 · Sun closed · Mon–Wed 08:00–18:00",
    );
    expect(compactOpeningHours(hours, 7)).toBe("Today closed · Mon–Fri 08:00–18:00 · Sat 09:00–12:00");
  });

  it("lists a day's intervals in order, and says nothing when the feed gave no hours", () => {
    const split = [
      { day: 1, from: "13:00", to: "17:00" },
      { day: 1, from: "08:00", to: "12:00" },
    ];
    expect(compactOpeningHours(split, 1)).toBe("Today 08:00–12:00, 13:00–17:00 · Tue–Sun closed");
    expect(compactOpeningHours([], 1)).toBeNull();
  });
});

it("says every day when the hours are the same all week", () => {
  const hours = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: "00:00", to: "23:59" }));
  expect(compactOpeningHours(hours, 5)).toBe("Every day 00:00–23:59");
});
