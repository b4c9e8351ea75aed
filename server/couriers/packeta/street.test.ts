import { describe, expect, it } from "vitest";
import { splitStreet } from "./mapping";

describe("splitStreet: a Czech street line as Packeta's street + houseNumber", () => {
  it.each([
    // [line, street, houseNumber]
    ["Dlouhá 12", "Dlouhá", "12"],
    ["Dlouhá 12a", "Dlouhá", "12a"],
    ["Na Příkopě 15/3a", "Na Příkopě", "15/3a"],
    ["Nádražní 1234/5", "Nádražní", "1234/5"],
    ["Náměstí Míru 1234/5 A", "Náměstí Míru", "1234/5A"],
    ["Dlouhá 12 / 3", "Dlouhá", "12/3"],
    ["Hlavní 12, byt 3", "Hlavní, byt 3", "12"],
    ["Náměstí Míru 1234/5 A, vchod B", "Náměstí Míru, vchod B", "1234/5A"],
    ["Hlavní, 12", "Hlavní", "12"],
    ["28. října 12", "28. října", "12"],
    ["Třída 1. máje 5", "Třída 1. máje", "5"],
    ["Lhota 45", "Lhota", "45"],
    ["Lhota č.p. 45", "Lhota", "45"],
    ["Lhota č. p. 45", "Lhota", "45"],
    ["  Dlouhá   12  ", "Dlouhá", "12"],
    ["5. května", "5. května", undefined],
    ["Lhota", "Lhota", undefined],
  ])("%j → street %j, houseNumber %j", (line, street, houseNumber) => {
    expect(splitStreet(line)).toEqual({ street, houseNumber });
  });
});
