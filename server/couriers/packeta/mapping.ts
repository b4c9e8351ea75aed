import { localTimeToDate } from "../zoned-time";
import { error, type ValidationMessage } from "@/server/services/shipping-orders/validation-messages";
import type { ShipmentRequest, TrackingEvent } from "../adapter";
import type { ShippingStatus } from "@/db/schema";
import type { PacketaSettings } from "./settings";
import { splitStreet } from "./street";

/**
 * The platform's order as Packeta packets (one per parcel) and Packeta's answers as the platform's terms.
 * Decisions the contract leaves open (also in README.md here):
 * - `Recipient.Name` is split at its first space: `name` = the first word, `surname` = the rest (a single word is the
 *   surname, which Packeta requires).
 * - For `HOME`, `Recipient.Street` is split into `street` and `houseNumber` by `splitStreet` (street.ts: "Dlouhá 12",
 *   "Hlavní 12, byt 3", "Náměstí Míru 1234/5 A"); without a house number, the whole text is the street.
 * - `value` (Packeta requires it) is `InsurancePrice`, else `CodPrice`, in the order's COD currency (Packeta reads
 *   `value` in `currency`); each packet of a multi-parcel order carries the order's COD and value on its first packet
 *   only, so the recipient pays once.
 * - Every packet of an order has the order's `ReferenceNumber` as `number`.
 */
export const PACKETA_COD_CURRENCIES = ["CZK", "EUR", "HUF", "PLN", "RON"] as const;

export function splitName(full: string): { name: string | undefined; surname: string } {
  const words = full.trim().split(/\s+/);
  if (words.length === 1) return { name: undefined, surname: words[0]! };
  return { name: words[0]!, surname: words.slice(1).join(" ") };
}

export { splitStreet } from "./street";

/** The `packetAttributes` of the order's parcel `index`. */
export function packetAttributes(order: ShipmentRequest, index: number, settings: PacketaSettings) {
  const { name, surname } = splitName(order.recipient.name);
  const first = index === 0;
  const home = order.service === "HOME";
  const address = home ? splitStreet(order.recipient.street) : null;
  const value = order.insurancePrice ?? order.codPrice;
  return {
    number: order.referenceNumber,
    name,
    surname,
    company: order.recipient.company ?? undefined,
    email: order.recipient.email ?? undefined,
    phone: order.recipient.phone ?? undefined,
    addressId: home ? settings.homeDeliveryCarriers?.[order.recipient.country] : order.pickupPoint,
    cod: first && order.codPrice !== null ? order.codPrice.toFixed(2) : undefined,
    currency: order.codCurrency ?? "CZK",
    value: first && value !== null ? value.toFixed(2) : "0.00",
    weight: order.parcels[index]!.weight,
    eshop: settings.sender,
    note: order.note ?? undefined,
    ...(home
      ? {
          street: address!.street,
          houseNumber: address!.houseNumber,
          city: order.recipient.city,
          zip: order.recipient.zip,
        }
      : {}),
  };
}

/** Packeta's written limits, as messages at the order's fields, before any call. */
export function validateForPacketa(order: ShipmentRequest, settings: PacketaSettings): ValidationMessage[] {
  const messages: ValidationMessage[] = [];
  if (order.referenceNumber.length > 24)
    messages.push(error("TOO_LONG", "ReferenceNumber", "Packeta takes at most 24 characters."));
  const { name, surname } = splitName(order.recipient.name);
  if ((name?.length ?? 0) > 32 || surname.length > 32)
    messages.push(
      error("TOO_LONG", "Recipient.Name", "Packeta takes a name and a surname of at most 32 characters each."),
    );
  if ((order.recipient.phone?.length ?? 0) > 20)
    messages.push(error("TOO_LONG", "Recipient.Phone", "Packeta takes at most 20 characters."));
  if (order.codPrice !== null && !PACKETA_COD_CURRENCIES.includes(order.codCurrency as never))
    messages.push(
      error(
        "COD_NOT_SUPPORTED",
        "CodCurrency",
        `Packeta collects cash on delivery in ${PACKETA_COD_CURRENCIES.join(", ")}.`,
      ),
    );
  if (order.insurancePrice === null && order.codPrice === null)
    messages.push(error("REQUIRED", "InsurancePrice", "Packeta requires a value: give InsurancePrice (or CodPrice)."));
  // A missing PickupPoint is the platform's REQUIRED already (the service needs one); a given one must be Packeta's id.
  if (order.service === "PICKUP_POINT" && order.pickupPoint && !/^\d+$/.test(order.pickupPoint))
    messages.push(
      error("INVALID_FORMAT", "PickupPoint", "Packeta's pickup-point id is digits (e.g. 4321) for PICKUP_POINT."),
    );
  if (order.service === "HOME" && settings.homeDeliveryCarriers?.[order.recipient.country] === undefined)
    messages.push(
      error(
        "UNSUPPORTED_COUNTRY",
        "Recipient.Country",
        `The profile names no Packeta home-delivery carrier for ${order.recipient.country} (settings.homeDeliveryCarriers).`,
      ),
    );
  return messages;
}

/** Packeta's attribute names (in its faults) as the platform's fields. */
const FIELDS: Record<string, string> = {
  number: "ReferenceNumber",
  name: "Recipient.Name",
  surname: "Recipient.Name",
  company: "Recipient.Company",
  email: "Recipient.Email",
  phone: "Recipient.Phone",
  addressId: "PickupPoint",
  cod: "CodPrice",
  currency: "CodCurrency",
  value: "InsurancePrice",
  weight: "Parcels[].Weight",
  note: "Note",
  street: "Recipient.Street",
  houseNumber: "Recipient.Street",
  city: "Recipient.City",
  zip: "Recipient.Zip",
};

/**
 * The platform's field for a Packeta attribute. `addressId` is the pickup point, except for HOME, where it is the
 * carrier id the profile names for the recipient's country (`settings.homeDeliveryCarriers`): `Recipient.Country`.
 */
export const platformField = (packetaName: string, service?: string): string | null =>
  packetaName === "addressId" && service === "HOME" ? "Recipient.Country" : (FIELDS[packetaName] ?? null);

/** Packeta's status codes as the shipping status (the contract's table); null: a code that moves nothing. */
export function statusOfCode(code: number): ShippingStatus | null {
  if (code === 1) return "CREATED";
  if (code === 2) return "HANDED_OVER";
  if ([3, 4, 6, 14].includes(code)) return "IN_TRANSIT";
  if ([5, 16].includes(code)) return "OUT_FOR_DELIVERY";
  if (code === 7) return "DELIVERED";
  if ([9, 10, 17].includes(code)) return "RETURNED";
  if (code === 11) return "CANCELLED";
  return null;
}

/** `packetStatus`'s answer as a tracking event (Packeta's own text kept). */
export function trackingEventOf(record: {
  dateTime?: string;
  statusCode?: string;
  codeText?: string;
  statusText?: string;
}): TrackingEvent | null {
  const status = statusOfCode(Number(record.statusCode));
  if (!status) return null;
  return {
    // Packeta writes Prague wall-clock time without a zone.
    time: localTimeToDate(String(record.dateTime), "Europe/Prague"),
    status,
    description: String(record.statusText ?? record.codeText ?? ""),
    location: null,
  };
}
