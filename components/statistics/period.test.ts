import { describe, expect, it } from "vitest";
import { dayRange } from "./period";

describe("dayRange", () => {
  it("names a range the same way wherever it runs (plain spaces and an en dash, never ICU's own range format)", () => {
    expect(dayRange("2026-11-22", "2026-11-28")).toBe("22–28 Nov 2026");
    expect(dayRange("2026-10-30", "2026-11-28")).toBe("30 Oct – 28 Nov 2026");
    expect(dayRange("2025-12-30", "2026-01-03")).toBe("30 Dec 2025 – 3 Jan 2026");
    expect(dayRange("2026-03-03", "2026-03-03")).toBe("3 Mar 2026");
  });
});
