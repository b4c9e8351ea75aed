import { isSealed, openSecret, sealSecret } from "./seal-secret";

/**
 * A courier profile's `settings` as stored: the courier's secret fields (its adapter's `secretFields`) are sealed
 * strings (`sealed:v1:…`, see seal-secret.ts) inside the same jsonb; everything else is plain. These functions are
 * the only way settings go in (sealed), come out to a courier call (opened) and come out to a view (masked).
 */
type Settings = Record<string, unknown>;

const MASK = "****";

/** `****` + the last 4 characters: what every view shows of a secret (and what a client may send back unchanged). */
export const maskSecret = (plain: string): string => `${MASK}${plain.slice(-4)}`;

const isMasked = (value: unknown): boolean => typeof value === "string" && value.startsWith(MASK);

/** The plain settings an adapter receives. Every courier call site reads settings through here. */
export function openProfileSettings(stored: Settings): Settings {
  const opened: Settings = {};
  for (const [name, value] of Object.entries(stored))
    opened[name] = typeof value === "string" && isSealed(value) ? openSecret(value) : value;
  return opened;
}

/** The settings as views show them: secret fields masked, the rest as stored. */
export function maskProfileSettings(stored: Settings, secretFields: readonly string[]): Settings {
  const masked: Settings = { ...stored };
  for (const name of secretFields)
    if (typeof stored[name] === "string") masked[name] = maskSecret(openSecret(stored[name]));
  return masked;
}

/**
 * What a create or PATCH means for the secret fields, before the courier's schema judges the settings: a secret the
 * caller left out, or sent back masked as it was shown, keeps its stored value (opened, so the schema sees it whole).
 */
export function withKeptSecrets(
  incoming: Settings,
  stored: Settings | null,
  secretFields: readonly string[],
): Settings {
  const merged: Settings = { ...incoming };
  for (const name of secretFields) {
    const keep = merged[name] === undefined || isMasked(merged[name]);
    if (keep && stored && typeof stored[name] === "string") merged[name] = openSecret(stored[name]);
    else if (keep) delete merged[name];
  }
  return merged;
}

/** The settings to store: every secret field sealed under the current key. */
export function sealProfileSettings(valid: Settings, secretFields: readonly string[]): Settings {
  const sealed: Settings = { ...valid };
  for (const name of secretFields)
    if (typeof valid[name] === "string" && !isSealed(valid[name])) sealed[name] = sealSecret(valid[name]);
  return sealed;
}
