/**
 * An order to start the form from (a refused attempt or a validation result, as it was sent) and what the
 * form sends back: the form's fields over the original, in the original's key order, with every field the
 * form has no input for (Note, dimensions, VariableSymbol, …) kept as it was.
 */
export type OrderDraft = { courierId: string; profileId: string | null; request: unknown };

type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keys the form has inputs or selects for, per level; anything else passes through untouched. */
const FORM_KEYS = {
  top: [
    "ReferenceNumber",
    "ReferenceSource",
    "SourceIdentifier",
    "Service",
    "PickupPoint",
    "Recipient",
    "Parcels",
    "CodPrice",
    "CodCurrency",
  ],
  recipient: ["Name", "Company", "Street", "City", "Zip", "Country", "Email", "Phone"],
  parcel: ["Weight"],
};

/** `built` over `original`: the original's order first (dropping form fields the form left empty), then new keys. */
function overlay(original: Json, built: Json, controlled: readonly string[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(original)) {
    if (!controlled.includes(key)) out[key] = value;
    else if (built[key] !== undefined) out[key] = built[key];
  }
  for (const [key, value] of Object.entries(built)) if (!(key in out) && value !== undefined) out[key] = value;
  return out;
}

export function mergeDraft(original: unknown, built: Json): Json {
  if (!isRecord(original)) return built;
  const recipient =
    isRecord(original.Recipient) && isRecord(built.Recipient)
      ? overlay(original.Recipient, built.Recipient, FORM_KEYS.recipient)
      : built.Recipient;
  const parcels = Array.isArray(built.Parcels)
    ? built.Parcels.map((parcel, i) => {
        const before = Array.isArray(original.Parcels) ? original.Parcels[i] : undefined;
        return isRecord(before) && isRecord(parcel) ? overlay(before, parcel, FORM_KEYS.parcel) : parcel;
      })
    : built.Parcels;
  return overlay(original, { ...built, Recipient: recipient, Parcels: parcels }, FORM_KEYS.top);
}

/** A form input's starting text: strings as they are, numbers written out, anything else left empty. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}
