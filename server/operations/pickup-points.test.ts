import { describe, expect, it } from "vitest";
import { pickupPointQuery } from "./pickup-points";

const issues = (query: Record<string, string>) => {
  const result = pickupPointQuery.safeParse(query);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join("."), i.message]);
};

describe("the pickup-point search's query", () => {
  it("reads the query strings into a search, with the contract's defaults", () => {
    expect(pickupPointQuery.parse({})).toEqual({ page: 1, pageSize: 20, open: true });
    expect(
      pickupPointQuery.parse({
        country: "cz",
        q: "plzeň",
        zip: "301 00",
        near: "49.7384, 13.3736",
        type: "LOCKER",
        cod: "true",
        weightKg: "2.5",
        open: "false",
        page: "2",
        pageSize: "50",
      }),
    ).toMatchObject({
      country: "CZ",
      q: "plzeň",
      near: { lat: 49.7384, lon: 13.3736 },
      type: "LOCKER",
      cod: true,
      weightKg: 2.5,
      open: false,
      page: 2,
      pageSize: 50,
    });
    expect(pickupPointQuery.parse({ near: "50,14", radiusKm: "100" })).toMatchObject({ radiusKm: 100 });
  });

  it("refuses bad values with a message naming the parameter", () => {
    for (const near of ["50.1", "91,14", "50,181", "prague"])
      expect(issues({ near })).toEqual([["near", expect.stringMatching(/^near must be lat,lon/)]]);
    expect(issues({ near: "50,14", radiusKm: "101" })).toEqual([
      ["radiusKm", expect.stringMatching(/^radiusKm must be/)],
    ]);
    expect(issues({ near: "50,14", radiusKm: "0" })).toEqual([
      ["radiusKm", expect.stringMatching(/^radiusKm must be/)],
    ]);
    expect(issues({ radiusKm: "5" })).toEqual([["radiusKm", "radiusKm needs near"]]);
    expect(issues({ pageSize: "51" })).toEqual([["pageSize", expect.stringMatching(/^pageSize/)]]);
    expect(issues({ type: "BOX" })).toEqual([["type", expect.stringMatching(/^type must be POINT or LOCKER/)]]);
    expect(issues({ weightKg: "-1" })).toEqual([["weightKg", expect.stringMatching(/^weightKg/)]]);
    expect(issues({ open: "yes" })).toEqual([["open", "open must be true or false"]]);
    expect(issues({ country: "CZE" })).toEqual([["country", expect.stringMatching(/^country must be/)]]);
    expect(issues({ q: "  " })).toEqual([["q", expect.stringMatching(/^q must have/)]]);
  });
});
