/**
 * The order request (PascalCase, as partners send it) from the form. Values are passed on as typed, so
 * the server's rules (not the browser's) decide what is wrong: an empty input is left out (the server
 * says "is required" where it is), a number that does not parse is sent as text (it says "must be a number").
 */

import { textOf, valueAt } from "./order-draft";
import { isParcelField, ORDER_FIELDS, parcelKey, type OrderField } from "./order-fields";

const text = (data: FormData, name: string): string | undefined => {
  const value = String(data.get(name) ?? "").trim();
  return value === "" ? undefined : value;
};

const number = (data: FormData, name: string): number | string | undefined => {
  const value = text(data, name);
  if (value === undefined) return undefined;
  const normalised = value.replace(",", ".");
  return /^-?\d+(\.\d+)?$/.test(normalised) ? Number(normalised) : value;
};

/** Drops undefined values so the JSON sent (and recorded) shows only what was filled in. */
const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));

export type OrderChoices = {
  parcelCount: number;
  source: { referenceSource: string; sourceIdentifier: string } | null;
  service: string;
  codCurrency: string;
  /** The fields the form has an input or select for (those the courier uses); default: every field. */
  fields?: readonly OrderField[];
};

/** The input names of a field: its path, or one per parcel (`Parcels[1].Weight`). */
const namesOf = (field: OrderField, parcelCount: number): string[] =>
  isParcelField(field)
    ? Array.from({ length: parcelCount }, (_, i) => `Parcels[${i}].${parcelKey(field)}`)
    : [field.path];

/**
 * What the inputs (not the selects) start with for an order as sent: each input's name and text, parcels' for
 * `parcelCount` parcels. What `buildOrder` reads back.
 */
export function formValues(order: unknown, fields: readonly OrderField[], parcelCount: number): Map<string, string> {
  const values = new Map<string, string>();
  for (const field of fields) {
    if (field.kind === "select") continue;
    for (const name of namesOf(field, parcelCount)) {
      const value = textOf(valueAt(order, name));
      if (value !== undefined) values.set(name, value);
    }
  }
  return values;
}

/** The order from the form's inputs (named by path) and its selects' choices, with its keys in ORDER_FIELDS' order. */
export function buildOrder(data: FormData, choices: OrderChoices): Record<string, unknown> {
  const fields = choices.fields ?? ORDER_FIELDS;
  const codGiven = fields.some((f) => f.path === "CodPrice") && text(data, "CodPrice") !== undefined;
  const selected: Record<string, string | undefined> = {
    ReferenceSource: choices.source?.referenceSource,
    SourceIdentifier: choices.source?.sourceIdentifier,
    Service: choices.service || undefined,
    // A currency without an amount says nothing: it is sent with the amount only.
    CodCurrency: codGiven ? choices.codCurrency || undefined : undefined,
  };
  const read = (field: OrderField, name: string) =>
    field.kind === "select" ? selected[field.path] : field.kind === "number" ? number(data, name) : text(data, name);

  const order: Record<string, unknown> = {};
  const recipient: Record<string, unknown> = {};
  const parcels = Array.from({ length: choices.parcelCount }, (): Record<string, unknown> => ({}));
  for (const field of ORDER_FIELDS) {
    if (!fields.includes(field)) continue;
    if (isParcelField(field)) {
      order.Parcels = parcels;
      parcels.forEach((parcel, i) => (parcel[parcelKey(field)] = read(field, `Parcels[${i}].${parcelKey(field)}`)));
    } else if (field.path.startsWith("Recipient.")) {
      order.Recipient = recipient;
      recipient[field.path.slice("Recipient.".length)] = read(field, field.path);
    } else order[field.path] = read(field, field.path);
  }
  return defined({
    ...order,
    Recipient: defined(recipient),
    Parcels: parcels.map(defined),
  });
}
