import type { ValidationMessage } from "@/lib/validation-message";

/** The id of the input a field path is shown at: `Parcels[1].Weight` → `order-Parcels-1-Weight`. */
export const fieldId = (path: string): string => `order-${path.replace(/\[(\d+)\]/g, "-$1").replace(/\./g, "-")}`;

/** Paths answered by an input that does not carry their name: both halves of the source pair are one select. */
const ALIASES: Record<string, string> = { ReferenceSource: "SourcePair", SourceIdentifier: "SourcePair" };

export type PlacedMessages = {
  at: (path: string) => ValidationMessage[];
  unplaced: ValidationMessage[];
  placed: { message: ValidationMessage; path: string }[];
};

/**
 * Puts each message at the input its field names; the rest (`Parcels` when there are none, a field the
 * form has no input for) are returned to be listed with their paths.
 */
export function placeMessages(messages: ValidationMessage[], inputs: ReadonlySet<string>): PlacedMessages {
  const byPath = new Map<string, ValidationMessage[]>();
  const unplaced: ValidationMessage[] = [];
  const placed: PlacedMessages["placed"] = [];
  for (const message of messages) {
    const path = message.field ? (ALIASES[message.field] ?? message.field) : null;
    if (path && inputs.has(path)) {
      byPath.set(path, [...(byPath.get(path) ?? []), message]);
      placed.push({ message, path });
    } else unplaced.push(message);
  }
  return { at: (path) => byPath.get(path) ?? [], unplaced, placed };
}

/** "Recipient.Zip must look like …" reads "Must look like …" under the Zip input. */
export function atFieldText(message: ValidationMessage): string {
  const text =
    message.field && message.message.startsWith(`${message.field} `)
      ? message.message.slice(message.field.length + 1)
      : message.message;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The words on screen for a field path: what the input's label says, not the API's name for it. */
const FIELD_LABELS: Record<string, string> = {
  ReferenceNumber: "Reference number",
  SourcePair: "Source",
  Service: "Service",
  PickupPoint: "Pickup point",
  "Recipient.Name": "Recipient name",
  "Recipient.Company": "Recipient company",
  "Recipient.Street": "Street",
  "Recipient.City": "City",
  "Recipient.Zip": "Zip",
  "Recipient.Country": "Country",
  "Recipient.Email": "Email",
  "Recipient.Phone": "Phone",
  CodPrice: "Cash on delivery amount",
  CodCurrency: "Cash on delivery currency",
};

export function fieldLabel(path: string): string {
  const parcel = /^Parcels\[(\d+)\]\.Weight$/.exec(path);
  if (parcel) return `Parcel ${Number(parcel[1]) + 1} weight (kg)`;
  return FIELD_LABELS[path] ?? path;
}
