import type { ValidationMessage } from "@/lib/validation-message";
import { inputPath, ORDER_FIELDS, type OrderField } from "./order-fields";

/** The id of the input a field path is shown at: `Parcels[1].Weight` → `order-Parcels-1-Weight`. */
export const fieldId = (path: string): string => `order-${path.replace(/\[(\d+)\]/g, "-$1").replace(/\./g, "-")}`;

/** Paths answered by an input that does not carry their name: both halves of the source pair are one select. */
const ALIASES: Record<string, string> = Object.fromEntries(
  ORDER_FIELDS.filter((f) => f.input !== undefined).map((f) => [f.path, inputPath(f)]),
);

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

/** A field's name away from its input: its own, else its label without "optional" (`length (cm, optional)` → `length (cm)`). */
const nameOf = (field: OrderField): string =>
  field.name ?? field.label.replace(/ \(optional\)$/, "").replace(/, optional\)$/, ")");

/** Each field by its path and by the path of its input (`SourcePair`), the first field of an input winning. */
const BY_PATH = new Map<string, OrderField>();
for (const field of ORDER_FIELDS) {
  if (!BY_PATH.has(inputPath(field))) BY_PATH.set(inputPath(field), field);
  if (!BY_PATH.has(field.path)) BY_PATH.set(field.path, field);
}

/** The words on screen for a field path: what the input's label says, not the API's name for it. */
export function fieldLabel(path: string): string {
  const parcel = /^Parcels\[(\d+)\]\.(\w+)$/.exec(path);
  const field = BY_PATH.get(parcel ? `Parcels[].${parcel[2]}` : path);
  if (!field) return path;
  return parcel ? `Parcel ${Number(parcel[1]) + 1} ${nameOf(field)}` : nameOf(field);
}
