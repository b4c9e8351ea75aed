import { describe, expect, it } from "vitest";
import { pickupPointSearchQuery } from "./schemas";

const parse = (query: Record<string, string>) => pickupPointSearchQuery.safeParse(query);
const messages = (query: Record<string, string>) => {
  const result = parse(query);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe("pickupPointSearchQuery", () => {
  it("reads the query strings into a search, with the contract's defaults", () => {
    expect(pickupPointSearchQuery.parse({})).toEqual({ page: 1, pageSize: 20, open: true });
    expect(
      pickupPointSearchQuery.parse({
        country: "cz",
        q: " plzeň ",
        zip: "301 00",
        near: "49.7384, 13.3736",
        type: "LOCKER",
        cod: "true",
        weightKg: "2.5",
        open: "false",
        page: "2",
        pageSize: "50",
      }),
    ).toEqual({
      country: "CZ",
      q: "plzeň",
      zip: "301 00",
      near: { lat: 49.7384, lon: 13.3736 },
      radiusKm: 10,
      type: "LOCKER",
      cod: true,
      weightKg: 2.5,
      open: false,
      page: 2,
      pageSize: 50,
    });
    expect(pickupPointSearchQuery.parse({ near: "50,14", radiusKm: "100" })).toMatchObject({ radiusKm: 100 });
  });

  it("refuses bad values with a message naming the parameter", () => {
    expect(messages({ near: "50.1" })[0]).toMatch(/^near must be "lat,lon"/);
    expect(messages({ near: "91,14" })[0]).toMatch(/^near must be "lat,lon"/);
    expect(messages({ near: "50,181" })[0]).toMatch(/^near must be "lat,lon"/);
    expect(messages({ near: "50,14", radiusKm: "101" })[0]).toMatch(/^radiusKm must be/);
    expect(messages({ near: "50,14", radiusKm: "0" })[0]).toMatch(/^radiusKm must be/);
    expect(messages({ radiusKm: "5" })).toEqual(["radiusKm needs near"]);
    expect(messages({ pageSize: "51" })[0]).toMatch(/^pageSize/);
    expect(messages({ type: "BOX" })[0]).toMatch(/^type must be one of POINT, LOCKER/);
    expect(messages({ cod: "false" })[0]).toMatch(/^cod must be "true"/);
    expect(messages({ weightKg: "-1" })[0]).toMatch(/^weightKg/);
    expect(messages({ open: "yes" })[0]).toMatch(/^open must be true or false/);
    expect(messages({ country: "CZE" })[0]).toMatch(/^country must be/);
    expect(messages({ q: "  " })[0]).toMatch(/^q must not be empty/);
  });
});
