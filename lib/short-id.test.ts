import { describe, expect, it } from "vitest";
import { shortId } from "./short-id";

describe("shortId", () => {
  it("tells apart two ids made in the same millisecond, which share their first digits", () => {
    const a = "01a20781-5f3c-7a10-8d2e-4b6f1c9e0a11";
    const b = "01a20781-5f3c-7b22-9c41-7e0d2a5b3f98";
    expect(a.slice(0, 8)).toBe(b.slice(0, 8));
    expect(shortId(a)).toBe("1c9e0a11");
    expect(shortId(b)).not.toBe(shortId(a));
  });
});
