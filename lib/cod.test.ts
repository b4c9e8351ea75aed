import { describe, expect, it } from "vitest";
import { formatCod } from "./cod";

describe("formatCod", () => {
  it("shows the amount with two decimals and its currency", () => {
    expect(formatCod(499, "CZK")).toBe("499.00 CZK");
    expect(formatCod(12.5, "EUR")).toBe("12.50 EUR");
    expect(formatCod(0, "CZK")).toBe("0.00 CZK");
  });

  it("is null without cash on delivery, and the amount alone without a currency", () => {
    expect(formatCod(null, null)).toBeNull();
    expect(formatCod(100, null)).toBe("100.00");
  });
});
