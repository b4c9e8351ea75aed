/**
 * An order to start the form from (a refused attempt or a validation result, as it was sent) and what the
 * form sends back: the form's fields over the original, in the original's key order, with every field the
 * form has no input for (one the chosen courier does not use: dimensions for PPL, VariableSymbol for Packeta, …)
 * kept as it was.
 */
export type OrderDraft = { courierId: string; profileId: string | null; request: unknown };

type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The keys of one level (`""` the order, `"Recipient."`, `"Parcels[]."`) among field paths. */
const keysAt = (paths: Iterable<string>, prefix: string): string[] =>
  [...paths]
    .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("."))
    .map((p) => p.slice(prefix.length));

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

/**
 * The form's order over the one it started from. `controlled` are the field paths (`Recipient.Zip`,
 * `Parcels[].Weight`, as in ORDER_FIELDS) the form had an input or select for: an empty one drops the field, every
 * other field of the original is kept as it was. `parcelOrigins[i]` is the original parcel the form's parcel `i`
 * started from (undefined for one added in the form); without it parcels are matched by position.
 */
export function mergeDraft(
  original: unknown,
  built: Json,
  controlled: Iterable<string>,
  parcelOrigins?: readonly (number | undefined)[],
): Json {
  if (!isRecord(original)) return built;
  const paths = [...controlled];
  const top = [...new Set([...keysAt(paths, ""), "Recipient", "Parcels"])];
  const recipient =
    isRecord(original.Recipient) && isRecord(built.Recipient)
      ? overlay(original.Recipient, built.Recipient, keysAt(paths, "Recipient."))
      : built.Recipient;
  const parcels = Array.isArray(built.Parcels)
    ? built.Parcels.map((parcel, i) => {
        const from = parcelOrigins ? parcelOrigins[i] : i;
        const before = Array.isArray(original.Parcels) && from !== undefined ? original.Parcels[from] : undefined;
        return isRecord(before) && isRecord(parcel) ? overlay(before, parcel, keysAt(paths, "Parcels[].")) : parcel;
      })
    : built.Parcels;
  return overlay(original, { ...built, Recipient: recipient, Parcels: parcels }, top);
}

/** The value at a field path of an order (`Recipient.Zip`, `Parcels[1].Weight`); undefined where there is none. */
export function valueAt(order: unknown, path: string): unknown {
  let node: unknown = order;
  for (const key of path.split(/\.|\[(\d+)\]/).filter(Boolean)) {
    if (/^\d+$/.test(key)) node = Array.isArray(node) ? node[Number(key)] : undefined;
    else node = isRecord(node) ? node[key] : undefined;
  }
  return node;
}

/** A form input's starting text: strings as they are, numbers written out, anything else left empty. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}
