import type { CourierCapabilities } from "@/server/couriers/adapter";
import { PHONE_HINT } from "@/lib/phone";

/**
 * Every field of the order request body (PascalCase paths, parcels as `Parcels[].Field`), with what the form
 * needs to offer it: label, kind of input, help, and which couriers use it. The form's inputs, `buildOrder`,
 * the paths messages are placed at and the words naming a field (`fieldLabel`) are all read from this list,
 * in its order.
 */
export type OrderFieldKind = "text" | "number" | "email" | "tel" | "select";

export type OrderSection = "Order" | "Recipient" | "Parcels" | "Cash on delivery" | "Insurance";

export type OrderField = {
  path: string;
  /** The input's label; a parcel's is prefixed with `Parcel N `. */
  label: string;
  /** The field's name away from its input (a summary line, a suggestion); default: the label without "optional". */
  name?: string;
  kind: OrderFieldKind;
  hint?: string;
  /** A hint for one courier (by id) in place of `hint`. */
  courierHints?: Readonly<Record<string, string>>;
  section: OrderSection;
  /** The input that answers the field when it does not carry the field's own path (the source pair's one select). */
  input?: string;
  /** Couriers (ids) that take the field, for what their capabilities do not tell; absent: every courier. */
  couriers?: readonly string[];
  /** What the courier's capabilities must offer for the field to mean anything there. */
  needs?: "cod" | "pickupPoint";
  requiredBy?: readonly string[];
  maxLength?: number;
  uppercase?: boolean;
};

export const ORDER_FIELDS: readonly OrderField[] = [
  {
    path: "ReferenceNumber",
    label: "Reference number",
    kind: "text",
    hint: "Your order number, 1 to 64 characters.",
    section: "Order",
  },
  {
    path: "ExternalReference",
    label: "External reference (optional)",
    kind: "text",
    hint: "Up to 64 characters.",
    section: "Order",
  },
  {
    path: "ReferenceSource",
    label: "Source",
    kind: "select",
    hint: "The e-shop the order comes from: an activated pair, or the built-in api / default.",
    section: "Order",
    input: "SourcePair",
  },
  { path: "SourceIdentifier", label: "Source", kind: "select", section: "Order", input: "SourcePair" },
  { path: "Service", label: "Service", kind: "select", section: "Order" },
  { path: "PickupPoint", label: "Pickup point (optional)", kind: "text", section: "Order", needs: "pickupPoint" },
  { path: "Recipient.Name", label: "Name", name: "Recipient name", kind: "text", section: "Recipient" },
  {
    path: "Recipient.Company",
    label: "Company (optional)",
    name: "Recipient company",
    kind: "text",
    section: "Recipient",
  },
  { path: "Recipient.Street", label: "Street", kind: "text", section: "Recipient" },
  { path: "Recipient.City", label: "City", kind: "text", section: "Recipient" },
  {
    path: "Recipient.Zip",
    label: "Zip",
    kind: "text",
    hint: "e.g. 110 00 for CZ, 10115 for DE",
    section: "Recipient",
  },
  {
    path: "Recipient.Country",
    label: "Country",
    kind: "text",
    hint: "ISO code, e.g. CZ",
    section: "Recipient",
    maxLength: 2,
    uppercase: true,
  },
  { path: "Recipient.Email", label: "Email (optional)", kind: "email", section: "Recipient" },
  { path: "Recipient.Phone", label: "Phone (optional)", kind: "tel", hint: PHONE_HINT, section: "Recipient" },
  { path: "Parcels[].Weight", label: "weight (kg)", kind: "number", section: "Parcels" },
  // Packeta sends a parcel's size (all three or none); PPL's shipment has no dimensions.
  {
    path: "Parcels[].Length",
    label: "length (cm, optional)",
    kind: "number",
    section: "Parcels",
    couriers: ["packeta"],
  },
  { path: "Parcels[].Width", label: "width (cm, optional)", kind: "number", section: "Parcels", couriers: ["packeta"] },
  {
    path: "Parcels[].Height",
    label: "height (cm, optional)",
    kind: "number",
    section: "Parcels",
    couriers: ["packeta"],
  },
  { path: "Parcels[].Reference", label: "reference (optional)", kind: "text", section: "Parcels" },
  {
    path: "CodPrice",
    label: "Amount (optional)",
    name: "Cash on delivery amount",
    kind: "number",
    hint: "Leave empty when the recipient does not pay on delivery.",
    section: "Cash on delivery",
    needs: "cod",
  },
  {
    path: "CodCurrency",
    label: "Currency",
    name: "Cash on delivery currency",
    kind: "select",
    section: "Cash on delivery",
    needs: "cod",
  },
  {
    path: "VariableSymbol",
    label: "Variable symbol (optional)",
    kind: "text",
    hint: "1 to 10 digits; PPL needs it with cash on delivery.",
    section: "Cash on delivery",
    couriers: ["ppl"],
    needs: "cod",
    requiredBy: ["ppl"],
  },
  {
    path: "InsurancePrice",
    label: "Insured value (optional)",
    kind: "number",
    hint: "The value the shipment is insured for.",
    courierHints: {
      packeta: "Packeta needs a value: this, or else the COD amount.",
      ppl: "In CZK; PPL adds insurance above the cover its service includes.",
    },
    section: "Insurance",
    couriers: ["ppl", "packeta"],
    requiredBy: ["packeta"],
  },
  { path: "Note", label: "Note (optional)", kind: "text", hint: "Up to 300 characters.", section: "Order" },
];

/** What of a courier decides which fields the form shows. */
export type CourierFieldUse = Pick<CourierCapabilities, "id" | "services" | "codCurrencies">;

/**
 * Whether the courier uses the field: its capabilities first (cash on delivery offered, a service delivering to a
 * pickup point), then the list's couriers for what capabilities do not say (Packeta's parcel size, PPL's variable
 * symbol).
 */
export function usesField(courier: CourierFieldUse, field: OrderField): boolean {
  if (field.couriers && !field.couriers.includes(courier.id)) return false;
  if (field.needs === "cod") return courier.codCurrencies.length > 0;
  if (field.needs === "pickupPoint") return courier.services.some((s) => s.requiresPickupPoint);
  return true;
}

/** The fields the form shows for the courier, in the list's order. */
export const fieldsFor = (courier: CourierFieldUse): OrderField[] => ORDER_FIELDS.filter((f) => usesField(courier, f));

export const isParcelField = (field: OrderField): boolean => field.path.startsWith("Parcels[].");

/** The part of a parcel field's path after `Parcels[].`. */
export const parcelKey = (field: OrderField): string => field.path.slice("Parcels[].".length);

/** The path of the input that answers the field (`SourcePair` for both halves of the source pair). */
export const inputPath = (field: OrderField): string => field.input ?? field.path;

/** The hint shown with the field for the courier. */
export const hintFor = (field: OrderField, courierId: string): string | undefined =>
  field.courierHints?.[courierId] ?? field.hint;

/**
 * The paths of the inputs the fields have, parcels' for each of `parcelCount` parcels (`Parcels[1].Weight`): where
 * a message about one of them is shown.
 */
export function inputPaths(fields: readonly OrderField[], parcelCount: number): string[] {
  const paths: string[] = [];
  for (const field of fields) {
    if (isParcelField(field)) {
      for (let i = 0; i < parcelCount; i++) paths.push(`Parcels[${i}].${parcelKey(field)}`);
    } else if (!paths.includes(inputPath(field))) paths.push(inputPath(field));
  }
  return paths;
}
