import { describe, expect, it } from "vitest";
import { screenMessage } from "./form-errors";

describe("screenMessage", () => {
  it("drops the API's name for the field, which the input's label already says", () => {
    expect(screenMessage("name", "name must have 1 to 100 characters")).toBe("Must have 1 to 100 characters.");
    expect(screenMessage("rateLimitPerMinute", "rateLimitPerMinute must be a whole number from 1 to 100000")).toBe(
      "Must be a whole number from 1 to 100000.",
    );
    expect(screenMessage("settings.timeoutMs", "timeoutMs must be at least 1")).toBe("Must be at least 1.");
  });

  it("says terse API messages as sentences", () => {
    expect(screenMessage("sourceIdentifier", "pair already active")).toBe("This pair is already active.");
    expect(screenMessage("name", "Too long")).toBe("Too long.");
  });
});
