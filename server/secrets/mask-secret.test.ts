import { describe, expect, it } from "vitest";

import { maskSecret } from "./profile-settings";

describe("maskSecret", () => {
  it("hides a secret under 12 characters entirely", () => {
    expect(maskSecret("abcdef")).toBe("****");
    expect(maskSecret("abcdefghijk")).toBe("****");
  });

  it("shows the last 4 characters of a secret of 12 characters or more", () => {
    expect(maskSecret("abcdefghijkl")).toBe("****ijkl");
  });
});
