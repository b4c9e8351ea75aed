import { EU_COUNTRIES } from "../countries";
import type { ShippingStatus } from "@/lib/shipping-status";
import { error, type ValidationMessage } from "@/lib/validation-message";
import type { ShipmentRequest, TrackingEvent } from "../adapter";
import type { PplSettings } from "./settings";

/**
 * The platform's order as a PPL CPL shipment (`POST /shipment/batch`) and PPL's answers in the platform's terms.
 * JSON names are those of PPL's models (`EpsApiMyApi2WebModelsShipmentBatch…`). Decisions the contract leaves open are
 * listed in README.md here.
 */

// ---- PPL's JSON models (only the fields the connector sends or reads) ----

export type PplAddress = {
  name?: string;
  name2?: string;
  street?: string;
  city?: string;
  zipCode: string;
  country: string;
  contact?: string;
  phone?: string;
  email?: string;
};

export type PplExternalNumber = { code: string; externalNumber: string };

/** `EpsApiMyApi2WebModelsShipmentBatchShipmentModel`. */
export type PplShipment = {
  referenceId: string;
  productType: string;
  note?: string;
  shipmentSet?: {
    numberOfShipments: number;
    shipmentSetItems?: { weighedShipmentInfo?: { weight: number }; externalNumbers?: PplExternalNumber[] }[];
  };
  recipient: PplAddress;
  specificDelivery?: { parcelShopCode?: string };
  cashOnDelivery?: { codPrice: number; codCurrency: string; codVarSym?: string };
  insurance?: { insurancePrice: number; insuranceCurrency: string };
  externalNumbers?: PplExternalNumber[];
};

export type PplLabelSettings = {
  format: "Pdf" | "Zpl" | "Jpeg" | "Png" | "Svg";
  dpi?: number;
  completeLabelSettings?: { isCompleteLabelRequested?: boolean; pageSize?: "Default" | "A4"; position?: number };
};

/** `EpsApiMyApi2WebModelsShipmentBatchCreateShipmentBatchModel`. */
export type PplCreateBatch = { labelSettings?: PplLabelSettings; shipments: PplShipment[] };

export type PplImportState = "Accepted" | "InProcess" | "Complete" | "Error";

/** `…ShipmentResultChildItemModel`: a further parcel of a set (or a back document, a dormant shipment). */
export type PplBatchChildItem = {
  shipmentNumber?: string | null;
  labelUrl?: string | null;
  importState?: PplImportState | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  relationType?: "ShipmentSet" | "DocumentBack" | "Dormant" | null;
};

/** `…ShipmentResultItemModel`: one shipment of the batch (the set's first parcel), matched by `referenceId`. */
export type PplBatchItem = Omit<PplBatchChildItem, "relationType"> & {
  referenceId?: string | null;
  relatedItems?: PplBatchChildItem[] | null;
};

/** `…ShipmentBatchResultModel` (`GET /shipment/batch/{batchId}`). */
export type PplBatchResult = { completeLabel?: { labelUrls?: string[] | null } | null; items?: PplBatchItem[] | null };

/** `EpsApiMyApi2WebModelsShipmentTrackAndTraceItemModel`. */
export type PplTrackEvent = {
  statusId?: number | null;
  code?: string | null;
  phase?: string | null;
  group?: string | null;
  eventDate?: string | null;
  name?: string | null;
};

/** `EpsApiMyApi2WebModelsShipmentShipmentModel` (`GET /shipment`), one per parcel. */
export type PplShipmentInfo = {
  shipmentNumber?: string | null;
  productType?: string | null;
  shipmentSet?: {
    masterShipmentNumber?: string | null;
    shipmentsInSet?: number | null;
    shipmentInSetNumber?: number | null;
  } | null;
  externalNumbers?: { code?: string | null; externalNumber?: string | null }[] | null;
  trackAndTrace?: { events?: PplTrackEvent[] | null } | null;
};

// ---- Services, countries, COD ----

/** The platform's services as PPL products, without and with cash on delivery (the contract's list). */
export const PPL_SERVICES = {
  PRIVATE: { name: "PPL Parcel CZ Private", product: "PRIV", codProduct: "PRID", domestic: true },
  BUSINESS: { name: "PPL Parcel CZ Business", product: "BUSS", codProduct: "BUSD", domestic: true },
  PARCELSHOP: { name: "PPL Parcel CZ Smart (ParcelShop)", product: "SMAR", codProduct: "SMAD", domestic: true },
  INTERNATIONAL: { name: "PPL Parcel Connect", product: "CONN", codProduct: "COND", domestic: false },
} as const;

export type PplService = keyof typeof PPL_SERVICES;
const isPplService = (code: string): code is PplService => Object.hasOwn(PPL_SERVICES, code);

export const productTypeOf = (order: ShipmentRequest): string => {
  const service = isPplService(order.service) ? PPL_SERVICES[order.service] : PPL_SERVICES.PRIVATE;
  return order.codPrice === null ? service.product : service.codProduct;
};

/**
 * PPL Parcel Connect's EU countries (road network; Cyprus and Malta left out). The domestic products (PRIV, BUSS,
 * SMAR) deliver in CZ only.
 */
export const PPL_INTERNATIONAL_COUNTRIES = EU_COUNTRIES.filter((c) => !["CY", "CZ", "MT"].includes(c));
export const PPL_COUNTRIES = ["CZ", ...PPL_INTERNATIONAL_COUNTRIES] as const;

/**
 * Cash-on-delivery limits per product and currency: PPL's own fallback table (`ppl-cz/src/config/limits.php` of its
 * WooCommerce plugin; the live values come from `/codelist/servicePriceLimit`). HRK is left out (Croatia pays in EUR
 * since 2023); limits.php also lists 500 EUR for COND without naming the country it applies to: the 3,000 EUR of the
 * other COND row is checked here and PPL's own refusal covers the rest.
 */
export const PPL_COD_LIMITS: readonly { products: readonly string[]; currency: string; min: number; max: number }[] = [
  { products: ["PRID", "BUSD", "SMAD"], currency: "CZK", min: 0.01, max: 100_000 },
  { products: ["COND"], currency: "CZK", min: 0.01, max: 80_000 },
  { products: ["COND"], currency: "EUR", min: 0.01, max: 3_000 },
  { products: ["COND"], currency: "PLN", min: 0.01, max: 6_500 },
  { products: ["COND"], currency: "HUF", min: 1, max: 600_000 },
  { products: ["COND"], currency: "RON", min: 0.01, max: 7_300 },
  { products: ["COND"], currency: "BGN", min: 0.01, max: 2_900 },
];
/**
 * The currencies PPL collects cash on delivery in, per recipient country. PPL's country code list
 * (`GET /codelist/country`, `cashOnDelivery`; the plugin's fallback `ppl-cz/src/config/countries.php`) allows COD in
 * CZ, SK, PL, HU and RO only; the currency is the country's own (`ppl-cz/src/config/currencies.php`), and Slovakia
 * also takes CZK (`ppl-cz/src/config/cod_currencies.php`). The plugin offers COD only for such a country and currency
 * (`CartModelDernomalizer.php`).
 */
export const PPL_COD_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  CZ: ["CZK"],
  SK: ["EUR", "CZK"],
  PL: ["PLN"],
  HU: ["HUF"],
  RO: ["RON"],
};
export const PPL_COD_CURRENCIES = [...new Set(Object.values(PPL_COD_COUNTRIES).flat())];

/**
 * PPL's additional insurance (`insurance`, `InsuranceFeatureModel`): in CZK only ("Připojištění může být pouze v rámci
 * naší národní měny – CZK"), above the cover each product includes and up to 500,000 CZK (limits.php, `INSURANCE`:
 * PRIV/PRID, BUSS/BUSD from 50,000.01; SMAR/SMAD from 20,000.01; CONN/COND from 100,000.01).
 */
export const PPL_INCLUDED_INSURANCE_CZK: Readonly<Record<PplService, number>> = {
  PRIVATE: 50_000,
  BUSINESS: 50_000,
  PARCELSHOP: 20_000,
  INTERNATIONAL: 100_000,
};
export const PPL_MAX_INSURANCE_CZK = 500_000;

/** `numberOfShipments` of a shipment set: "Max 50" (PPL's `ShipmentSetFeatureModel`). */
export const PPL_MAX_PARCELS_PER_SET = 50;

export const PPL_MAX_PARCEL_WEIGHT_KG = 31.5;

export const pplTrackingUrl = (shipmentNumber: string): string =>
  `https://www.ppl.cz/vyhledat-zasilku?shipmentId=${encodeURIComponent(shipmentNumber)}`;

/** The code of the external number that carries the platform's ReferenceNumber (what `CustomerReferences` finds). */
export const CUSTOMER_REFERENCE_CODE = "CUST";

/** PPL's `ExternalNumberModel.externalNumber`: `maxLength` 100 (a `referenceId` may have 128). */
export const PPL_MAX_EXTERNAL_NUMBER = 100;

/**
 * Whether the order's reference can be carried as its `CUST` external number, so that PPL's lookup by customer
 * reference can find the shipment: a ReferenceNumber of 101..128 characters is a valid `referenceId` but no valid
 * external number, so it is not sent as one and such a shipment cannot be looked up by reference (only through its
 * batch).
 */
export const isCustomerReference = (referenceNumber: string): boolean =>
  [...referenceNumber].length <= PPL_MAX_EXTERNAL_NUMBER;

// ---- Order → PPL ----

const present = (value: string | null | undefined): string | undefined =>
  value === null || value === undefined || value.trim() === "" ? undefined : value.trim();

/** The zip as PPL's examples write it: without spaces ("110 00" → "11000"). */
export const pplZip = (zip: string): string => zip.replace(/\s+/g, "");

/**
 * PPL's additional insurance for the order: `InsurancePrice` is taken in CZK (the only currency PPL insures in), and
 * sent only above the cover the product includes; at or below it nothing is sent.
 */
export function pplInsuranceOf(order: ShipmentRequest): PplShipment["insurance"] {
  if (order.insurancePrice === null || !isPplService(order.service)) return undefined;
  if (order.insurancePrice <= PPL_INCLUDED_INSURANCE_CZK[order.service]) return undefined;
  return { insurancePrice: order.insurancePrice, insuranceCurrency: "CZK" };
}

/**
 * `recipient.name` / `recipient.contact`: PPL's `name` is "Název firmy / jméno" (the company, else the person) and
 * `contact` the contact person, so a company is the `name` with the person in `contact`; without one the person is
 * the `name` (as PPL's plugin does, `AddressModelDenormalizer.php`).
 */
function recipientNames(recipient: ShipmentRequest["recipient"]): Pick<PplAddress, "name" | "contact"> {
  const company = present(recipient.company);
  return company === undefined ? { name: recipient.name } : { name: company, contact: recipient.name };
}

/** One item of `shipments[]`. */
export function pplShipmentOf(order: ShipmentRequest, _settings: PplSettings): PplShipment {
  const recipient = order.recipient;
  return {
    referenceId: order.referenceNumber,
    productType: productTypeOf(order),
    note: present(order.note),
    // PPL's shipment model has no weight of its own: every parcel's weight (kg) is an item of the shipment set, also
    // for a single parcel (a set of one).
    shipmentSet: {
      numberOfShipments: order.parcels.length,
      shipmentSetItems: order.parcels.map((parcel) => ({ weighedShipmentInfo: { weight: parcel.weight } })),
    },
    recipient: {
      ...recipientNames(recipient),
      street: recipient.street,
      city: recipient.city,
      zipCode: pplZip(recipient.zip),
      country: recipient.country,
      // E.164 (`+420666777888`) as the platform keeps it: the form of PPL's own examples, within its 30 characters.
      phone: present(recipient.phone),
      email: present(recipient.email),
    },
    specificDelivery: order.service === "PARCELSHOP" ? { parcelShopCode: present(order.pickupPoint) } : undefined,
    cashOnDelivery:
      order.codPrice === null
        ? undefined
        : {
            codPrice: order.codPrice,
            codCurrency: order.codCurrency ?? "CZK",
            codVarSym: present(order.variableSymbol),
          },
    insurance: pplInsuranceOf(order),
    externalNumbers: isCustomerReference(order.referenceNumber)
      ? [{ code: CUSTOMER_REFERENCE_CODE, externalNumber: order.referenceNumber }]
      : undefined,
  };
}

/**
 * The body of `POST /shipment/batch`. Labels are asked for as PDF here; `fetchLabel` sets the format it needs on the
 * batch (`PUT /shipment/batch/{batchId}`) before it reads the label.
 */
export function createBatchBody(orders: readonly ShipmentRequest[], settings: PplSettings): PplCreateBatch {
  return { labelSettings: { format: "Pdf" }, shipments: orders.map((order) => pplShipmentOf(order, settings)) };
}

// ---- Validation (PPL's written limits, before any call) ----

const LENGTHS: readonly { field: string; max: number; value: (o: ShipmentRequest) => string | null }[] = [
  { field: "ReferenceNumber", max: 128, value: (o) => o.referenceNumber },
  { field: "Recipient.Name", max: 50, value: (o) => o.recipient.name },
  { field: "Recipient.Company", max: 50, value: (o) => o.recipient.company },
  { field: "Recipient.Street", max: 60, value: (o) => o.recipient.street },
  { field: "Recipient.City", max: 50, value: (o) => o.recipient.city },
  { field: "Recipient.Zip", max: 10, value: (o) => pplZip(o.recipient.zip) },
  { field: "Recipient.Phone", max: 30, value: (o) => o.recipient.phone },
  { field: "Recipient.Email", max: 50, value: (o) => o.recipient.email },
];

/** PPL's written limits as messages at the order's fields. */
export function validateForPpl(order: ShipmentRequest, _settings: PplSettings): ValidationMessage[] {
  const messages: ValidationMessage[] = [];
  for (const { field, max, value } of LENGTHS) {
    const text = value(order);
    if (text !== null && [...text].length > max)
      messages.push(error("TOO_LONG", field, `PPL takes at most ${max} characters.`));
  }
  if (!isPplService(order.service)) {
    messages.push(error("INVALID_FORMAT", "Service", `PPL's services are ${Object.keys(PPL_SERVICES).join(", ")}.`));
    return messages;
  }
  const service = PPL_SERVICES[order.service];
  const country = order.recipient.country;
  if (service.domestic && country !== "CZ")
    messages.push(
      error(
        "UNSUPPORTED_COUNTRY",
        "Recipient.Country",
        `PPL's ${order.service} delivers in CZ only; use INTERNATIONAL.`,
      ),
    );
  if (!service.domestic && !(PPL_INTERNATIONAL_COUNTRIES as readonly string[]).includes(country))
    messages.push(
      error(
        "UNSUPPORTED_COUNTRY",
        "Recipient.Country",
        `PPL Parcel Connect delivers to ${PPL_INTERNATIONAL_COUNTRIES.join(", ")}.`,
      ),
    );
  if (!service.domestic && order.parcels.length > 1)
    messages.push(
      error(
        "OUT_OF_RANGE",
        "Parcels",
        "PPL's INTERNATIONAL (Parcel Connect) takes one parcel per shipment; send the parcels as separate orders.",
      ),
    );
  if (order.parcels.length > PPL_MAX_PARCELS_PER_SET)
    messages.push(
      error("OUT_OF_RANGE", "Parcels", `PPL takes at most ${PPL_MAX_PARCELS_PER_SET} parcels per shipment.`),
    );
  if (order.service === "PARCELSHOP" && present(order.pickupPoint) === undefined)
    messages.push(error("REQUIRED", "PickupPoint", "PPL needs the ParcelShop code for PARCELSHOP."));
  if (order.codPrice !== null) {
    const variableSymbol = present(order.variableSymbol);
    if (variableSymbol === undefined)
      messages.push(error("REQUIRED", "VariableSymbol", "PPL requires a variable symbol with cash on delivery."));
    else if (!/^\d{1,10}$/.test(variableSymbol))
      messages.push(error("INVALID_FORMAT", "VariableSymbol", "PPL takes a variable symbol of 1 to 10 digits."));
    const product = service.codProduct;
    const limits = PPL_COD_LIMITS.filter((l) => l.products.includes(product));
    const limit = limits.find((l) => l.currency === order.codCurrency);
    const countryCurrencies = PPL_COD_COUNTRIES[country];
    if (!countryCurrencies)
      messages.push(
        error(
          "COD_NOT_SUPPORTED",
          "CodPrice",
          `PPL collects no cash on delivery in ${country} (only in ${Object.keys(PPL_COD_COUNTRIES).join(", ")}).`,
        ),
      );
    else if (!countryCurrencies.includes(order.codCurrency ?? ""))
      messages.push(
        error(
          "COD_NOT_SUPPORTED",
          "CodCurrency",
          `PPL collects cash on delivery in ${country} in ${countryCurrencies.join(" or ")}.`,
        ),
      );
    else if (!limit)
      messages.push(
        error(
          "COD_NOT_SUPPORTED",
          "CodCurrency",
          `PPL collects cash on delivery for ${order.service} in ${limits.map((l) => l.currency).join(", ")}.`,
        ),
      );
    else if (order.codPrice < limit.min || order.codPrice > limit.max)
      messages.push(
        error(
          "OUT_OF_RANGE",
          "CodPrice",
          `PPL collects ${limit.min} to ${limit.max.toLocaleString("en")} ${limit.currency} on delivery for ${order.service}.`,
        ),
      );
  }
  if (order.insurancePrice !== null && order.insurancePrice > PPL_MAX_INSURANCE_CZK)
    messages.push(error("OUT_OF_RANGE", "InsurancePrice", "PPL insures a shipment up to 500,000 CZK."));
  return messages;
}

// ---- PPL's answers → the platform ----

/** PPL's field paths (inside one `shipments[i]`, lower-cased) as the platform's fields. */
const FIELDS: Record<string, string> = {
  referenceid: "ReferenceNumber",
  producttype: "Service",
  note: "Note",
  recipient: "Recipient",
  // `name` is the company when the order has one (then `contact` is the person): PPL's words say which.
  "recipient.name": "Recipient.Name",
  "recipient.contact": "Recipient.Name",
  "recipient.name2": "Recipient.Company",
  "recipient.street": "Recipient.Street",
  "recipient.city": "Recipient.City",
  "recipient.zipcode": "Recipient.Zip",
  "recipient.country": "Recipient.Country",
  "recipient.phone": "Recipient.Phone",
  "recipient.email": "Recipient.Email",
  cashondelivery: "CodPrice",
  "cashondelivery.codprice": "CodPrice",
  "cashondelivery.codcurrency": "CodCurrency",
  "cashondelivery.codvarsym": "VariableSymbol",
  specificdelivery: "PickupPoint",
  "specificdelivery.parcelshopcode": "PickupPoint",
  "insurance.insuranceprice": "InsurancePrice",
  "externalnumbers[0].externalnumber": "ReferenceNumber",
};

const ITEM = /^\$?\.?shipments\[(\d+)\]\.?/i;

/** The `shipments[i]` a PPL error path names, or null for a path about the whole batch. */
export const itemIndexOf = (pplPath: string): number | null => {
  const match = ITEM.exec(pplPath);
  return match ? Number(match[1]) : null;
};

/**
 * A PPL error path (`shipments[0].recipient.zipCode`) as the platform's field (`Recipient.Zip`); a path the platform
 * has no field for is answered as PPL wrote it.
 */
export function platformField(pplPath: string): string {
  const inside = pplPath.replace(ITEM, "").toLowerCase();
  const parcel = /^shipmentset\.shipmentsetitems\[(\d+)\]\.weighedshipmentinfo(\.weight)?$/.exec(inside);
  if (parcel) return `Parcels[${parcel[1]}].Weight`;
  return FIELDS[inside] ?? pplPath;
}

/** Digit strings compared as numbers (PPL's shipment numbers are 11 digits; longer means larger). */
export const compareShipmentNumbers = (a: string, b: string): number =>
  a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

const setMembersOf = (item: PplBatchItem): PplBatchChildItem[] =>
  (item.relatedItems ?? []).filter((r) => !!r.shipmentNumber && (r.relationType ?? "ShipmentSet") === "ShipmentSet");

/**
 * The shipping numbers of a completed item, in parcel order: the item's own number (the set's first parcel) and then
 * its related `ShipmentSet` items in ascending shipment-number order (PPL numbers a set's parcels consecutively).
 */
export function shippingNumbersOf(item: PplBatchItem): string[] {
  const rest = setMembersOf(item)
    .map((r) => r.shipmentNumber!)
    .sort(compareShipmentNumbers);
  return item.shipmentNumber ? [item.shipmentNumber, ...rest] : rest;
}

/** The label URL of each parcel, in the order of `shippingNumbersOf`. */
export function labelUrlsOf(item: PplBatchItem): string[] {
  const rest = setMembersOf(item).sort((a, b) => compareShipmentNumbers(a.shipmentNumber!, b.shipmentNumber!));
  return [item, ...rest].map((i) => i.labelUrl ?? "").filter((url) => url !== "");
}

/** Every label of the batch in PPL's `OrderBy=ShipmentNumber` order: the shipment numbers of its completed items. */
export function batchLabelOrder(result: PplBatchResult): string[] {
  return (result.items ?? [])
    .filter((item) => item.importState === "Complete")
    .flatMap((item) => [item.shipmentNumber, ...(item.relatedItems ?? []).map((r) => r.shipmentNumber)])
    .filter((n): n is string => typeof n === "string" && n !== "")
    .sort(compareShipmentNumbers);
}

/** PPL's phases as the shipping status (the contract's table); `InTransport` is decided by `trackingEventsOf`. */
const PHASES: Record<string, ShippingStatus> = {
  Order: "CREATED",
  Delivering: "OUT_FOR_DELIVERY",
  PickupPoint: "OUT_FOR_DELIVERY",
  Delivered: "DELIVERED",
  Returning: "RETURNED",
  BackToSender: "RETURNED",
  Canceled: "CANCELLED",
  // shipment_phases.php names `Deleted` with the same words as `Canceled` ("Zrušeno").
  Deleted: "CANCELLED",
};

export const CANCELLED_PHASES: readonly string[] = ["Canceled", "Deleted"];

const PRAGUE = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Prague",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** Prague's offset from UTC at `utc`, in ms. */
function pragueOffset(utc: number): number {
  const parts = Object.fromEntries(PRAGUE.formatToParts(new Date(utc)).map((p) => [p.type, p.value]));
  const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return local - (utc - (utc % 1000));
}

/** PPL's `eventDate`: ISO 8601; one written without an offset is Prague's local time (PPL is a Czech courier). */
export function pplTime(text: string): Date | null {
  const trimmed = text.trim();
  if (/([zZ]|[+-]\d\d:?\d\d)$/.test(trimmed)) {
    const time = new Date(trimmed);
    return Number.isNaN(time.getTime()) ? null : time;
  }
  const asUtc = new Date(`${trimmed}Z`).getTime();
  if (Number.isNaN(asUtc)) return null;
  const first = asUtc - pragueOffset(asUtc);
  return new Date(asUtc - pragueOffset(first));
}

/**
 * PPL's events as the platform's, oldest first: the first `InTransport` event is HANDED_OVER (PPL took the parcel),
 * later ones IN_TRANSIT; phases outside the contract's table are skipped. The description is PPL's own `name`.
 */
export function trackingEventsOf(events: readonly PplTrackEvent[]): TrackingEvent[] {
  const dated = events
    .map((event, index) => ({ event, index, time: event.eventDate ? pplTime(event.eventDate) : null }))
    .filter((e): e is { event: PplTrackEvent; index: number; time: Date } => e.time !== null)
    .sort((a, b) => a.time.getTime() - b.time.getTime() || a.index - b.index);
  const result: TrackingEvent[] = [];
  let handedOver = false;
  for (const { event, time } of dated) {
    let status: ShippingStatus | undefined;
    if (event.phase === "InTransport") {
      status = handedOver ? "IN_TRANSIT" : "HANDED_OVER";
      handedOver = true;
    } else if (event.phase && Object.hasOwn(PHASES, event.phase)) status = PHASES[event.phase];
    if (!status) continue;
    result.push({ time, status, description: event.name ?? event.code ?? event.phase ?? "", location: null });
  }
  return result;
}
