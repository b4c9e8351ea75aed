import type { PacketaCarrierRow } from "@/db/schema/pickup-points";
import { dayRanges, field, flag, num, text, WEEKDAYS } from "./feed-values";
import type { FeedPoint, Skipped } from "./feed-point";

/**
 * Packeta's v5 feeds (pickup-points.md A.3–A.5): `branch.json` (staffed points) and `box.json` (Z-BOX, AlzaBox), one
 * entry each, and `carrier.json`. Every scalar may be a string or a number, empty texts are `{}`; `exceptions` comes
 * in three shapes (`{}`, an array, `{ exception: [...] }`) and is not stored (the contract's point has regular hours
 * only), so it is never read; `status.statusId` 2 and 3 swap meaning between Packeta's own pages, so anything but 1
 * is "not accepting" (A.9 4).
 */

export type PacketaFeedKind = "branch" | "box";

/** One entry of `branch.json` or `box.json` as a point, or why it was left out. */
export function parsePacketaPoint(kind: PacketaFeedKind, entry: unknown): FeedPoint | Skipped {
  const id = text(field(entry, "id"));
  if (!/^\d+$/.test(id)) return { reason: "no numeric id" };
  const latitude = num(field(entry, "latitude"));
  const longitude = num(field(entry, "longitude"));
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
    return { reason: "no coordinates" };
  const country = text(field(entry, "country")).toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) return { reason: "no country" };
  const regular = field(field(entry, "openingHours"), "regular");
  const box = kind === "box";
  const maxWeight = num(field(entry, "maxWeight"));
  return {
    id,
    courier: "packeta",
    type: box ? "LOCKER" : "POINT",
    network: box ? text(field(entry, "type")).toLowerCase() || "zbox" : "packeta",
    name: text(field(entry, "name")),
    street: text(field(entry, "street")),
    city: text(field(entry, "city")),
    zip: text(field(entry, "zip")),
    country,
    latitude,
    longitude,
    openingHours: WEEKDAYS.flatMap((day, i) => dayRanges(i + 1, field(regular, day))),
    // Staffed points take cash on delivery (available-delivery-services); a box says so with `codAllowed`.
    cod: box ? flag(field(entry, "codAllowed")) : true,
    cardPayment: flag(field(entry, "creditCardPayment")),
    maxWeightKg: maxWeight !== null && maxWeight > 0 ? maxWeight : null,
    // Packeta documents no dimension limit for its boxes (A.4): only its validate endpoint knows.
    maxSizeCm: null,
    open: text(field(field(entry, "status"), "statusId")) === "1" && flag(field(entry, "displayFrontend")),
  };
}

export type PacketaCarrier = Omit<PacketaCarrierRow, "seenAt" | "updatedAt">;

/** One entry of `carrier.json`; `null` without an id or a name (Packeta's plugin drops such a download whole). */
export function parsePacketaCarrier(entry: unknown): PacketaCarrier | Skipped {
  const id = text(field(entry, "id"));
  const name = text(field(entry, "name"));
  if (id === "" || name === "") return { reason: "no id or name" };
  const maxWeight = num(field(entry, "maxWeight"));
  return {
    id,
    name,
    country: text(field(entry, "country")).toUpperCase(),
    currency: text(field(entry, "currency")).toUpperCase(),
    // Only Packeta's pudo-delivery page lists `available`; a feed without it offers the carrier.
    available: field(entry, "available") === undefined ? true : flag(field(entry, "available")),
    pickupPoints: flag(field(entry, "pickupPoints")),
    apiAllowed: flag(field(entry, "apiAllowed")),
    separateHouseNumber: flag(field(entry, "separateHouseNumber")),
    customsDeclarations: flag(field(entry, "customsDeclarations")),
    requiresEmail: flag(field(entry, "requiresEmail")),
    requiresPhone: flag(field(entry, "requiresPhone")),
    requiresSize: flag(field(entry, "requiresSize")),
    disallowsCod: flag(field(entry, "disallowsCod")),
    maxWeightKg: maxWeight !== null && maxWeight > 0 ? maxWeight : null,
  };
}
