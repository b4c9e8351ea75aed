import { describe, expect, it } from "vitest";
import { recipientParam, recipientSearchOf } from "./recipient-search";

describe("recipientParam", () => {
  it("reads the first value, trimmed, commas kept, U+0000 dropped, at most 100 characters", () => {
    expect(recipientParam({ recipient: "  Novák, Jan " })).toBe("Novák, Jan");
    expect(recipientParam({ recipient: ["first", "second"] })).toBe("first");
    expect(recipientParam({ recipient: "No\u0000vák" })).toBe("Novák");
    expect(recipientParam({ recipient: "x".repeat(150) })).toHaveLength(100);
    expect(recipientParam({})).toBe("");
  });

  it("keeps a text too short, for the list to refuse by name", () => {
    expect(recipientParam({ recipient: "no" })).toBe("no");
  });
});

describe("recipientSearchOf", () => {
  it("searches from 3 characters, trimmed", () => {
    expect(recipientSearchOf("  nov ")).toBe("nov");
    expect(recipientSearchOf("Novák")).toBe("Novák");
  });

  it("waits while fewer than 3 characters are typed, and clears on an empty field", () => {
    expect(recipientSearchOf("no")).toBeNull();
    expect(recipientSearchOf("  n  ")).toBeNull();
    expect(recipientSearchOf("   ")).toBe("");
    expect(recipientSearchOf("")).toBe("");
  });

  it("cuts at 100 characters", () => {
    expect(recipientSearchOf("y".repeat(120))).toHaveLength(100);
  });
});
