import { describe, expect, it } from "vitest";
import { hasIndexedWord } from "./pickup-point-search";

describe("hasIndexedWord", () => {
  it("wants a run of three letters or digits, accented letters counted as letters", () => {
    for (const text of ["Brno", "Plz", "eň a Plzeň", "110 00", "Náměstí Míru 12"])
      expect(hasIndexedWord(text)).toBe(true);
    for (const text of ["", "a", "Br", "Aš", "a b c", "1 1", "--"]) expect(hasIndexedWord(text)).toBe(false);
  });
});
