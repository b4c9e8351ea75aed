import { openSecret, sealSecret, type SecretBinding } from "./seal-secret";

/**
 * A courier profile's `settings` as stored: the courier's secret fields (its adapter's `secretFields`) are sealed
 * strings (`sealed:v2:…`, see seal-secret.ts) inside the same jsonb, each bound to its profile, field and account;
 * everything else is plain. These functions are the only way settings go in (sealed), come out to a courier call
 * (opened) and come out to a view (masked). What a client sends is always the plain secret, whatever it looks like.
 */
type Settings = Record<string, unknown>;

/** The profile a stored settings object belongs to: its sealed values open for this row and account only. */
export type StoredProfile = { id: string; accountId: string; settings: Settings };

const MASK = "****";

/** Below this length the last 4 characters would give away too much of the secret, so nothing of it is shown. */
const SHORTEST_SECRET_WITH_VISIBLE_SUFFIX = 12;

/** `****` + the last 4 characters (just `****` for a secret under 12 characters): what every view shows of a secret (and what a client may send back unchanged). */
export const maskSecret = (plain: string): string =>
  plain.length < SHORTEST_SECRET_WITH_VISIBLE_SUFFIX ? MASK : `${MASK}${plain.slice(-4)}`;

const isMasked = (value: unknown): boolean => typeof value === "string" && value.startsWith(MASK);

export const profileSecretBinding = (profile: { id: string; accountId: string }, name: string): SecretBinding => ({
  table: "courier_profiles",
  rowId: profile.id,
  field: `settings.${name}`,
  accountId: profile.accountId,
});

/** The plain settings an adapter receives. Every courier call site reads settings through here. */
export function openProfileSettings(profile: StoredProfile, secretFields: readonly string[]): Settings {
  const opened: Settings = { ...profile.settings };
  for (const name of secretFields) {
    const value = profile.settings[name];
    if (typeof value === "string") opened[name] = openSecret(value, profileSecretBinding(profile, name));
  }
  return opened;
}

/** The settings as views show them: secret fields masked, the rest as stored. */
export function maskProfileSettings(profile: StoredProfile, secretFields: readonly string[]): Settings {
  const masked: Settings = { ...profile.settings };
  for (const name of secretFields) {
    const value = profile.settings[name];
    if (typeof value === "string") masked[name] = maskSecret(openSecret(value, profileSecretBinding(profile, name)));
  }
  return masked;
}

/**
 * What a create or PATCH means for the secret fields, before the courier's schema judges the settings: a secret the
 * caller left out, or sent back masked as it was shown, keeps its stored value (opened, so the schema sees it whole).
 */
export function withKeptSecrets(
  incoming: Settings,
  stored: StoredProfile | null,
  secretFields: readonly string[],
): Settings {
  const merged: Settings = { ...incoming };
  for (const name of secretFields) {
    const keep = merged[name] === undefined || isMasked(merged[name]);
    const kept = stored?.settings[name];
    if (keep && stored && typeof kept === "string") merged[name] = openSecret(kept, profileSecretBinding(stored, name));
    else if (keep) delete merged[name];
  }
  return merged;
}

/**
 * The settings to store for this profile: every secret field sealed under the current key and bound to the profile.
 * Every value is sealed, one that already looks sealed too: a client's input is never taken as a stored value.
 */
export function sealProfileSettings(
  valid: Settings,
  profile: { id: string; accountId: string },
  secretFields: readonly string[],
): Settings {
  const sealed: Settings = { ...valid };
  for (const name of secretFields)
    if (typeof valid[name] === "string") sealed[name] = sealSecret(valid[name], profileSecretBinding(profile, name));
  return sealed;
}
