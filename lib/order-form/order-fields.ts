/**
 * Every field of the order request body (PascalCase paths, parcels as `Parcels[].Field`), with what the form
 * needs to offer it: label, kind of input, help, and which couriers use it. A courier missing from `couriers`
 * means every courier uses the field.
 */
export type OrderFieldKind = "text" | "number" | "email" | "tel" | "select";

export type OrderField = {
  path: string;
  label: string;
  kind: OrderFieldKind;
  hint?: string;
  couriers?: readonly string[];
  requiredBy?: readonly string[];
};

export const ORDER_FIELDS: readonly OrderField[] = [
  { path: "ReferenceNumber", label: "Reference number", kind: "text", hint: "Your order number, 1 to 64 characters." },
  { path: "ExternalReference", label: "External reference (optional)", kind: "text", hint: "Up to 64 characters." },
  { path: "ReferenceSource", label: "Source", kind: "select" },
  { path: "SourceIdentifier", label: "Source", kind: "select" },
  { path: "Service", label: "Service", kind: "select" },
  { path: "PickupPoint", label: "Pickup point (optional)", kind: "text" },
  { path: "Recipient.Name", label: "Name", kind: "text" },
  { path: "Recipient.Company", label: "Company (optional)", kind: "text" },
  { path: "Recipient.Street", label: "Street", kind: "text" },
  { path: "Recipient.City", label: "City", kind: "text" },
  { path: "Recipient.Zip", label: "Zip", kind: "text", hint: "e.g. 110 00 for CZ, 10115 for DE" },
  { path: "Recipient.Country", label: "Country", kind: "text", hint: "ISO code, e.g. CZ" },
  { path: "Recipient.Email", label: "Email (optional)", kind: "email" },
  { path: "Recipient.Phone", label: "Phone (optional)", kind: "tel" },
  { path: "Parcels[].Weight", label: "weight (kg)", kind: "number" },
  { path: "Parcels[].Length", label: "length (cm, optional)", kind: "number" },
  { path: "Parcels[].Width", label: "width (cm, optional)", kind: "number" },
  { path: "Parcels[].Height", label: "height (cm, optional)", kind: "number" },
  { path: "Parcels[].Reference", label: "reference (optional)", kind: "text" },
  {
    path: "CodPrice",
    label: "Amount (optional)",
    kind: "number",
    hint: "Leave empty when the recipient does not pay on delivery.",
  },
  { path: "CodCurrency", label: "Currency", kind: "select" },
  {
    path: "VariableSymbol",
    label: "Variable symbol (optional)",
    kind: "text",
    hint: "1 to 10 digits; PPL needs it with cash on delivery.",
    requiredBy: ["ppl"],
  },
  {
    path: "InsurancePrice",
    label: "Insured value (optional)",
    kind: "number",
    hint: "Packeta needs a value: this, or else the COD amount.",
    requiredBy: ["packeta"],
  },
  { path: "Note", label: "Note (optional)", kind: "text", hint: "Up to 300 characters." },
];
