import { isRecord } from "./order-draft";

/** A value a validation message offers for a field instead of the one sent (contract: `suggestions: [{ value, text }]`). */
export type Suggestion = { value: string; text: string; field?: string };

/** The suggestions a message carries, best first; a message without them (or with a malformed list) has none. */
export function suggestionsOf(message: unknown): Suggestion[] {
  if (!isRecord(message) || !Array.isArray(message.suggestions)) return [];
  return message.suggestions.flatMap((s: unknown) =>
    isRecord(s) && typeof s.value === "string" && typeof s.text === "string"
      ? [{ value: s.value, text: s.text, ...(typeof s.field === "string" ? { field: s.field } : {}) }]
      : [],
  );
}

/**
 * The field a suggestion's value goes into: the one it names, else the message's field. The pickup-point rules name
 * the field at fault (`CodPrice` for a point without cash on delivery, `Parcels[0].Weight` for a full locker) while
 * their suggestions are other points: those values belong in `PickupPoint`.
 */
export function suggestionTarget(message: { code: string; field: string | null }, suggestion: Suggestion) {
  if (suggestion.field) return suggestion.field;
  if (message.code.startsWith("PICKUP_POINT_")) return "PickupPoint";
  return message.field;
}

/** A copy of an order as sent with one field path (`PickupPoint`, `Recipient.Zip`, `Parcels[0].Weight`) set. */
export function withFieldValue(order: unknown, path: string, value: string): Record<string, unknown> {
  const root: Record<string, unknown> = isRecord(order) ? structuredClone(order) : {};
  const keys = path.split(/\.|\[(\d+)\]/).filter(Boolean);
  let node: Record<string, unknown> | unknown[] = root;
  keys.forEach((key, i) => {
    const index = /^\d+$/.test(key) ? Number(key) : key;
    const container = node as Record<string | number, unknown>;
    if (i === keys.length - 1) {
      container[index] = value;
      return;
    }
    const next = container[index];
    const nextIsIndex = /^\d+$/.test(keys[i + 1]!);
    if (!(nextIsIndex ? Array.isArray(next) : isRecord(next))) container[index] = nextIsIndex ? [] : {};
    node = container[index] as Record<string, unknown> | unknown[];
  });
  return root;
}
