import { describe, expect, it } from "vitest";
import { dayRanges, flag, hhmm, num, text } from "./feed-values";
import { parsePacketaCarrier, parsePacketaPoint } from "./parse-packeta";
import { isoWeekDay, parsePplAccessPoint } from "./parse-ppl";

/** Packeta's documented branch example (pickup-points.md A.10), as Packeta sends it: strings and `{}`. */
const branch = (overrides: Record<string, unknown> = {}) => ({
  id: "90001",
  name: "Testov, Zkušební 12 (Papírnictví Vzor)",
  special: "vchod ze dvora",
  place: "Papírnictví Vzor",
  street: "Zkušební 12",
  city: "Testov",
  zip: "100 00",
  country: "cz",
  currency: "CZK",
  status: { statusId: "1", description: "In operation" },
  displayFrontend: "1",
  directions: {},
  wheelchairAccessible: "no",
  creditCardPayment: "yes",
  latitude: "50.00010",
  longitude: "14.00010",
  maxWeight: "15",
  photos: [],
  openingHours: {
    regular: {
      monday: "08:00–12:30, 13:30–17:30",
      tuesday: "08:00-18:00",
      wednesday: "8:00 – 18:00",
      thursday: "",
      friday: {},
      saturday: "09:00–12:00",
      sunday: "",
    },
    exceptions: {},
  },
  ...overrides,
});

describe("feed values", () => {
  it("reads strings, numbers, {} and the flag spellings", () => {
    expect(text({})).toBe("");
    expect(text(null)).toBe("");
    expect(text(12)).toBe("12");
    expect(num("48.97585")).toBe(48.97585);
    expect(num({})).toBeNull();
    expect(num("")).toBeNull();
    expect(num(15)).toBe(15);
    for (const yes of ["yes", "1", "true", 1, true, "TRUE"]) expect(flag(yes)).toBe(true);
    for (const no of ["no", "0", "false", 0, false, {}, null, undefined]) expect(flag(no)).toBe(false);
    expect(hhmm("08:00:00")).toBe("08:00");
    expect(hhmm("8:05")).toBe("08:05");
    expect(hhmm("25:00")).toBeNull();
  });

  it("reads en-dash, hyphen and comma-separated ranges, and leaves out what it cannot read", () => {
    expect(dayRanges(1, "08:00–12:30, 13:30–17:30")).toEqual([
      { day: 1, from: "08:00", to: "12:30" },
      { day: 1, from: "13:30", to: "17:30" },
    ]);
    expect(dayRanges(2, "08:00-18:00")).toEqual([{ day: 2, from: "08:00", to: "18:00" }]);
    expect(dayRanges(3, "")).toEqual([]);
    expect(dayRanges(3, {})).toEqual([]);
    expect(dayRanges(3, "nonstop")).toEqual([]);
  });
});

describe("Packeta's feeds", () => {
  it("reads a branch of strings and {} as a point, days 1 = Monday", () => {
    expect(parsePacketaPoint("branch", branch())).toEqual({
      id: "90001",
      courier: "packeta",
      type: "POINT",
      network: "packeta",
      name: "Testov, Zkušební 12 (Papírnictví Vzor)",
      street: "Zkušební 12",
      city: "Testov",
      zip: "100 00",
      country: "CZ",
      latitude: 50.0001,
      longitude: 14.0001,
      openingHours: [
        { day: 1, from: "08:00", to: "12:30" },
        { day: 1, from: "13:30", to: "17:30" },
        { day: 2, from: "08:00", to: "18:00" },
        { day: 3, from: "08:00", to: "18:00" },
        { day: 6, from: "09:00", to: "12:00" },
      ],
      cod: true,
      cardPayment: true,
      maxWeightKg: 15,
      maxSizeCm: null,
      open: true,
    });
  });

  it("accepts the three shapes of exceptions", () => {
    for (const exceptions of [
      {},
      [{ date: "2030-01-10" }],
      { exception: [{ date: "2030-01-10", hours: "09:00–12:00" }] },
    ]) {
      const point = parsePacketaPoint("branch", branch({ openingHours: { ...branch().openingHours, exceptions } }));
      expect(point).toMatchObject({ id: "90001", open: true });
    }
  });

  it("reads numbers where Packeta documents integers, and any status but 1 as not accepting", () => {
    expect(
      parsePacketaPoint("branch", branch({ id: 90001, latitude: 50.1, longitude: 14.2, maxWeight: 10 })),
    ).toMatchObject({
      id: "90001",
      latitude: 50.1,
      maxWeightKg: 10,
    });
    for (const statusId of ["2", "3", "4", "5", 2])
      expect(parsePacketaPoint("branch", branch({ status: { statusId } }))).toMatchObject({ open: false });
    expect(parsePacketaPoint("branch", branch({ displayFrontend: "0" }))).toMatchObject({ open: false });
  });

  it("reads a box's type and codAllowed, and skips entries without id or coordinates", () => {
    expect(parsePacketaPoint("box", branch({ type: "alzabox", codAllowed: "0" }))).toMatchObject({
      type: "LOCKER",
      network: "alzabox",
      cod: false,
    });
    expect(parsePacketaPoint("box", branch({ type: "zbox", codAllowed: "1" }))).toMatchObject({
      network: "zbox",
      cod: true,
    });
    expect(parsePacketaPoint("branch", branch({ id: {} }))).toEqual({ reason: "no numeric id" });
    expect(parsePacketaPoint("branch", branch({ latitude: {} }))).toEqual({ reason: "no coordinates" });
  });

  it('reads a carrier\'s "true"/"false" strings', () => {
    expect(
      parsePacketaCarrier({
        id: "106",
        name: "CZ Zásilkovna HD",
        available: "true",
        pickupPoints: "false",
        apiAllowed: "true",
        separateHouseNumber: "false",
        customsDeclarations: "false",
        requiresEmail: "false",
        requiresPhone: "true",
        requiresSize: "false",
        disallowsCod: "false",
        country: "cz",
        currency: "CZK",
        maxWeight: "30",
      }),
    ).toEqual({
      id: "106",
      name: "CZ Zásilkovna HD",
      country: "CZ",
      currency: "CZK",
      available: true,
      pickupPoints: false,
      apiAllowed: true,
      separateHouseNumber: false,
      customsDeclarations: false,
      requiresEmail: false,
      requiresPhone: true,
      requiresSize: false,
      disallowsCod: false,
      maxWeightKg: 30,
    });
  });
});

describe("PPL's access points", () => {
  const model = (overrides: Record<string, unknown> = {}) => ({
    accessPointCode: "KM00000002",
    accessPointType: "ParcelBox",
    name: "PPL Parcelbox Vzorov",
    name2: null,
    street: "Náměstí 3",
    city: "Vzorov",
    country: "cz",
    zipCode: "20000",
    activeCardPayment: true,
    activeCashPayment: false,
    workHours: [
      { weekDay: 2, dayPart: 1, openFrom: "13:00:00", openTo: "18:00:00" },
      { weekDay: 1, dayPart: 0, openFrom: "00:00:00", openTo: "23:59:00" },
      { weekDay: 2, dayPart: 0, openFrom: "08:00:00", openTo: "12:00:00" },
    ],
    gps: { latitude: 49.5, longitude: 15.5 },
    capacitySettings: [
      { size: "S", capacity: 10, length: 380, height: 80, width: 500 },
      { size: "M", capacity: 6, length: 380, height: 190, width: 500 },
    ],
    ...overrides,
  });

  it("turns weekDay 1 = Sunday into 7, millimetres into cm, and country into upper case", () => {
    expect(isoWeekDay(1)).toBe(7);
    expect(isoWeekDay(2)).toBe(1);
    expect(isoWeekDay(7)).toBe(6);
    expect(parsePplAccessPoint(model())).toEqual({
      id: "KM00000002",
      courier: "ppl",
      type: "LOCKER",
      network: "parcelbox",
      name: "PPL Parcelbox Vzorov",
      street: "Náměstí 3",
      city: "Vzorov",
      zip: "20000",
      country: "CZ",
      latitude: 49.5,
      longitude: 15.5,
      openingHours: [
        { day: 1, from: "08:00", to: "12:00" },
        { day: 1, from: "13:00", to: "18:00" },
        { day: 7, from: "00:00", to: "23:59" },
      ],
      cod: true,
      cardPayment: true,
      maxWeightKg: 10,
      maxSizeCm: { length: 38, width: 50, height: 19 },
      open: true,
    });
  });

  it("skips a point whose gps is null, and maps the other types", () => {
    expect(parsePplAccessPoint(model({ gps: null }))).toEqual({ reason: "no gps" });
    expect(parsePplAccessPoint(model({ accessPointType: "ParcelShop", capacitySettings: null }))).toMatchObject({
      type: "POINT",
      network: "parcelshop",
      maxWeightKg: null,
      maxSizeCm: null,
    });
    expect(parsePplAccessPoint(model({ accessPointType: "AlzaBox" }))).toMatchObject({
      type: "LOCKER",
      network: "alzabox",
    });
  });
});
