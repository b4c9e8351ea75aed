import { localTimeToDate } from "../zoned-time";
import { error, type ValidationMessage } from "@/lib/validation-message";
import type { DirectoryFacts, ShipmentRequest, TrackingEvent } from "../adapter";
import type { ShippingStatus } from "@/lib/shipping-status";
import type { PacketaSettings } from "./settings";
import { splitStreet } from "./street";

/**
 * The platform's order as Packeta packets (one per parcel) and Packeta's answers as the platform's terms. Each rule
 * names its source in README.md here (the WSDL's `PacketAttributes`, Packeta's WooCommerce plugin, the contract).
 */
export const PACKETA_COD_CURRENCIES = ["CZK", "EUR", "HUF", "PLN", "RON"] as const;

/**
 * The WSDL's lengths (`string32`, `string64`, `string16`; XSD counts characters, not bytes) of the attributes the
 * platform fills from free text.
 */
export const PACKETA_LENGTHS = { name: 32, surname: 32, company: 32, city: 32, street: 64, houseNumber: 16 } as const;

/** Characters as XSD's `maxLength` counts them (code points). */
const lengthOf = (text: string): number => [...text].length;

/**
 * `Recipient.Name` split at its first space: `name` = the first word, `surname` = the rest. A one-word name is the
 * `name` (Packeta requires a name: its plugin refuses an order without one) with an empty `surname` (the WSDL's
 * `surname` is a required element, and an empty `string32` is a valid one).
 */
export function splitName(full: string): { name: string; surname: string } {
  const words = full.trim().split(/\s+/);
  return { name: words[0]!, surname: words.slice(1).join(" ") };
}

export { splitStreet } from "./street";

/** The WSDL's `weight` is an `xsd:decimal` with `fractionDigits` 3: kg rounded to the gram. */
export const packetaWeight = (kg: number): number => Math.round(kg * 1000) / 1000;

/**
 * The order's value (`InsurancePrice`, else `CodPrice`) shared across its packets, in cents so the shares add up to
 * the order's value exactly: each packet gets the same share, the cents that do not divide go one each to the first
 * packets. `null` when the order has no value (validation refuses such an order before any call).
 */
export function packetValues(order: ShipmentRequest): string[] | null {
  const value = order.insurancePrice ?? order.codPrice;
  if (value === null) return null;
  const cents = Math.round(value * 100);
  const count = order.parcels.length;
  const share = Math.floor(cents / count);
  const rest = cents - share * count;
  return order.parcels.map((_, i) => ((share + (i < rest ? 1 : 0)) / 100).toFixed(2));
}

/**
 * The WSDL's `Size` (length, width, height as `xsd:unsignedInt`, in mm) of a parcel whose three dimensions (cm) are
 * all given; none otherwise (the three elements are required together).
 */
export function packetSize(parcel: ShipmentRequest["parcels"][number]) {
  const { length, width, height } = parcel;
  if (length === null || width === null || height === null) return undefined;
  const mm = (cm: number) => Math.round(cm * 10);
  return { length: mm(length), width: mm(width), height: mm(height) };
}

/** The `packetAttributes` of the order's parcel `index`. */
export function packetAttributes(order: ShipmentRequest, index: number, settings: PacketaSettings) {
  const { name, surname } = splitName(order.recipient.name);
  const first = index === 0;
  const home = order.service === "HOME";
  const address = home ? splitStreet(order.recipient.street) : null;
  return {
    number: order.referenceNumber,
    name,
    surname,
    company: order.recipient.company ?? undefined,
    email: order.recipient.email ?? undefined,
    // E.164 (`+420601234567`) as the platform keeps it: the form of Packeta's own examples, within its 20 characters.
    phone: order.recipient.phone ?? undefined,
    addressId: home ? settings.homeDeliveryCarriers?.[order.recipient.country] : order.pickupPoint,
    // Cash on delivery is collected once, on the first packet.
    cod: first && order.codPrice !== null ? order.codPrice.toFixed(2) : undefined,
    currency: order.codCurrency ?? "CZK",
    value: packetValues(order)?.[index] ?? "0.00",
    weight: packetaWeight(order.parcels[index]!.weight),
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
    size: packetSize(order.parcels[index]!),
  };
}

/** Packeta's written limits, as messages at the order's fields, before any call. */
export function validateForPacketa(
  order: ShipmentRequest,
  settings: PacketaSettings,
  directory?: DirectoryFacts,
): ValidationMessage[] {
  const messages: ValidationMessage[] = [];
  if (order.referenceNumber.length > 24)
    messages.push(error("TOO_LONG", "ReferenceNumber", "Packeta takes at most 24 characters."));
  const { name, surname } = splitName(order.recipient.name);
  if (lengthOf(name) > PACKETA_LENGTHS.name || lengthOf(surname) > PACKETA_LENGTHS.surname)
    messages.push(
      error("TOO_LONG", "Recipient.Name", "Packeta takes a name and a surname of at most 32 characters each."),
    );
  if (order.recipient.company !== null && lengthOf(order.recipient.company) > PACKETA_LENGTHS.company)
    messages.push(error("TOO_LONG", "Recipient.Company", "Packeta takes a company of at most 32 characters."));
  // Street, house number and city are sent for HOME only (a pickup point is its own address).
  if (order.service === "HOME") {
    const { street, houseNumber } = splitStreet(order.recipient.street);
    if (lengthOf(street) > PACKETA_LENGTHS.street)
      messages.push(error("TOO_LONG", "Recipient.Street", "Packeta takes a street of at most 64 characters."));
    if (houseNumber !== undefined && lengthOf(houseNumber) > PACKETA_LENGTHS.houseNumber)
      messages.push(error("TOO_LONG", "Recipient.Street", "Packeta takes a house number of at most 16 characters."));
    if (lengthOf(order.recipient.city) > PACKETA_LENGTHS.city)
      messages.push(error("TOO_LONG", "Recipient.City", "Packeta takes a city of at most 32 characters."));
  }
  order.parcels.forEach((parcel, i) => {
    if (packetaWeight(parcel.weight) <= 0)
      messages.push(
        error("OUT_OF_RANGE", `Parcels[${i}].Weight`, "Packeta takes a weight of at least 0.001 kg (one gram)."),
      );
  });
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
  if (order.service === "HOME" && directory) messages.push(...homeCarrierMessages(order, settings, directory));
  return messages;
}

/** The carrier a HOME order goes to: the profile's carrier for the recipient's country (Packeta's `addressId`). */
export function homeCarrierId(order: ShipmentRequest, settings: PacketaSettings): string | undefined {
  if (order.service !== "HOME") return undefined;
  const id = settings.homeDeliveryCarriers?.[order.recipient.country];
  return id === undefined ? undefined : String(id);
}

/**
 * HOME against its carrier's requirements in Packeta's carrier feed (`carrier.json`: requiresPhone, requiresEmail,
 * separateHouseNumber, requiresSize, disallowsCod, maxWeight), so what the carrier would refuse at createPacket is an
 * ERROR at validate; this is also where a HOME parcel without its size is caught for a carrier that needs one. The
 * feed never synced: nothing to check against, a WARNING says so and the order goes as before.
 */
function homeCarrierMessages(
  order: ShipmentRequest,
  settings: PacketaSettings,
  directory: DirectoryFacts,
): ValidationMessage[] {
  const id = homeCarrierId(order, settings);
  if (id === undefined) return []; // UNSUPPORTED_COUNTRY already
  if (!directory.carriersSynced)
    return [
      {
        code: "CARRIER_NOT_VERIFIED",
        severity: "WARNING",
        field: "Service",
        message: `Packeta's carrier list has not been synced yet: carrier ${id}'s requirements were not checked`,
      },
    ];
  const carrier = directory.carrier(id);
  if (!carrier)
    return [
      error(
        "CARRIER_UNKNOWN",
        "Recipient.Country",
        `Packeta's carrier list has no carrier ${id} (settings.homeDeliveryCarriers.${order.recipient.country})`,
      ),
    ];
  const messages: ValidationMessage[] = [];
  const name = `Packeta's carrier ${carrier.name} (${id})`;
  if (!carrier.available || !carrier.apiAllowed)
    messages.push(error("CARRIER_UNAVAILABLE", "Recipient.Country", `${name} does not take packets now`));
  if (carrier.country !== order.recipient.country)
    messages.push(
      error(
        "UNSUPPORTED_COUNTRY",
        "Recipient.Country",
        `${name} delivers in ${carrier.country}, not ${order.recipient.country}`,
      ),
    );
  if (carrier.requiresPhone && !order.recipient.phone)
    messages.push(error("REQUIRED", "Recipient.Phone", `${name} requires the recipient's phone`));
  if (carrier.requiresEmail && !order.recipient.email)
    messages.push(error("REQUIRED", "Recipient.Email", `${name} requires the recipient's e-mail`));
  if (carrier.separateHouseNumber && splitStreet(order.recipient.street).houseNumber === undefined)
    messages.push(
      error("REQUIRED", "Recipient.Street", `${name} requires a house number in Recipient.Street (e.g. "Dlouhá 12")`),
    );
  if (carrier.disallowsCod && order.codPrice !== null)
    messages.push(error("COD_NOT_SUPPORTED", "CodPrice", `${name} does not collect cash on delivery`));
  order.parcels.forEach((parcel, i) => {
    if (carrier.requiresSize && packetSize(parcel) === undefined)
      messages.push(
        error("REQUIRED", `Parcels[${i}]`, `${name} requires each parcel's size: give Length, Width and Height (cm)`),
      );
    if (carrier.maxWeightKg !== null && parcel.weight > carrier.maxWeightKg)
      messages.push(
        error(
          "WEIGHT_LIMIT_EXCEEDED",
          `Parcels[${i}].Weight`,
          `Parcels[${i}].Weight ${parcel.weight} kg is over the ${carrier.maxWeightKg} kg of ${name}`,
        ),
      );
  });
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
  size: "Parcels[]",
  eshop: "settings.sender",
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

/** How far a packet is on its way (the order's status is that of its least advanced packet). */
const PROGRESS: readonly ShippingStatus[] = ["CREATED", "HANDED_OVER", "IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED"];

/**
 * The order's tracking event from each of its packets' `packetStatus` (the contract: every packet is tracked, the
 * order is DELIVERED only when every packet is, RETURNED when any packet is). The order's status: RETURNED when any
 * packet is returned; CANCELLED when every packet is; else the status of its least advanced packet (cancelled packets
 * left out). The event keeps the text of the packet that decides the status, and takes the time of the packets'
 * latest change (the moment the order's state became what it is), so it is the order's newest event. One packet: its
 * own event, as it was.
 */
export function orderTrackingEventOf(records: readonly Parameters<typeof trackingEventOf>[0][]): TrackingEvent | null {
  const events = records.map(trackingEventOf).filter((e): e is TrackingEvent => e !== null);
  if (events.length === 0) return null;
  const latest = new Date(Math.max(...events.map((e) => e.time.getTime())));
  const returned = events.filter((e) => e.status === "RETURNED");
  const live = events.filter((e) => e.status !== "CANCELLED");
  let deciding: TrackingEvent;
  if (returned.length > 0) deciding = returned.reduce((a, b) => (b.time > a.time ? b : a));
  else if (live.length === 0) deciding = events.reduce((a, b) => (b.time > a.time ? b : a));
  else deciding = live.reduce((a, b) => (PROGRESS.indexOf(b.status) < PROGRESS.indexOf(a.status) ? b : a));
  return { ...deciding, time: latest };
}
