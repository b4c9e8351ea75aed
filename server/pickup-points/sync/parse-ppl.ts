import type { PointType, SizeCm } from "@/db/schema/pickup-points";
import { field, flag, hhmm, num, text } from "./feed-values";
import type { FeedPoint, Skipped } from "./feed-point";

/**
 * PPL's `AccessPointModel` (pickup-points.md B.2): `weekDay` 1 = Sunday … 7 = Saturday, morning and afternoon rows,
 * `gps` possibly null, `capacitySettings` sizes in millimetres (inferred: PPL's own samples), no closed status (a
 * point that does not accept parcels is not listed) and no weight limit but ParcelBox's 10 kg (PPL's plugin, B.3).
 */

const TYPES: Record<string, { type: PointType; network: string; maxWeightKg: number | null }> = {
  ParcelShop: { type: "POINT", network: "parcelshop", maxWeightKg: null },
  ParcelBox: { type: "LOCKER", network: "parcelbox", maxWeightKg: 10 },
  AlzaBox: { type: "LOCKER", network: "alzabox", maxWeightKg: null },
};

/** PPL's week day (1 = Sunday) as the contract's (1 = Monday … 7 = Sunday). */
export const isoWeekDay = (pplWeekDay: number): number => (pplWeekDay === 1 ? 7 : pplWeekDay - 1);

/** The largest compartment, by volume, in cm (PPL gives millimetres). */
function largestSize(settings: unknown): SizeCm | null {
  if (!Array.isArray(settings)) return null;
  let best: SizeCm | null = null;
  for (const setting of settings) {
    const [length, width, height] = ["length", "width", "height"].map((key) => num(field(setting, key)));
    if (!length || !width || !height || length <= 0 || width <= 0 || height <= 0) continue;
    const size = { length: length / 10, width: width / 10, height: height / 10 };
    if (!best || size.length * size.width * size.height > best.length * best.width * best.height) best = size;
  }
  return best;
}

export function parsePplAccessPoint(entry: unknown): FeedPoint | Skipped {
  const id = text(field(entry, "accessPointCode"));
  if (id === "") return { reason: "no accessPointCode" };
  const kind = TYPES[text(field(entry, "accessPointType"))];
  if (!kind) return { reason: "no known accessPointType" };
  const gps = field(entry, "gps");
  const latitude = num(field(gps, "latitude"));
  const longitude = num(field(gps, "longitude"));
  if (latitude === null || longitude === null) return { reason: "no gps" };
  const country = text(field(entry, "country")).toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) return { reason: "no country" };
  const workHours = Array.isArray(field(entry, "workHours")) ? (field(entry, "workHours") as unknown[]) : [];
  const openingHours = workHours
    .flatMap((row) => {
      const weekDay = num(field(row, "weekDay"));
      const from = hhmm(field(row, "openFrom"));
      const to = hhmm(field(row, "openTo"));
      if (weekDay === null || weekDay < 1 || weekDay > 7 || !from || !to) return [];
      return [{ day: isoWeekDay(weekDay), from, to, part: num(field(row, "dayPart")) ?? 0 }];
    })
    .sort((a, b) => a.day - b.day || a.part - b.part || a.from.localeCompare(b.from))
    .map(({ day, from, to }) => ({ day, from, to }));
  const card = flag(field(entry, "activeCardPayment"));
  return {
    id,
    courier: "ppl",
    type: kind.type,
    network: kind.network,
    name: [text(field(entry, "name")), text(field(entry, "name2"))].filter((s) => s !== "").join(" "),
    street: text(field(entry, "street")),
    city: text(field(entry, "city")),
    zip: text(field(entry, "zipCode")),
    country,
    latitude,
    longitude,
    openingHours,
    // No COD flag per point: cash or card payment there is what lets a recipient pay on delivery (B.3, inferred).
    cod: flag(field(entry, "activeCashPayment")) || card,
    cardPayment: card,
    maxWeightKg: kind.maxWeightKg,
    maxSizeCm: largestSize(field(entry, "capacitySettings")),
    open: true,
  };
}
