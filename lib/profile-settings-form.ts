/**
 * A courier profile's `settings` as a form: the fields come from the courier's settings JSON Schema (what
 * `courierProfiles.couriers` answers as `settingsSchema`), the values are the strings the inputs hold, and
 * `toSettings` turns them back into the settings object a create or PATCH sends. A schema this cannot render
 * (`settingsFields` answers null) falls back to the JSON textarea of `parse-profile-settings.ts`.
 */

type Json = Record<string, unknown>;

type Common = {
  name: string;
  label: string;
  /** Help text under the input: the schema's description (or ours for a few known fields) and its limits. */
  hint: string | undefined;
  required: boolean;
};

export type StringSpec = Common & {
  kind: "string";
  /** Write-only (a password, a client secret): a password input; in an edit, empty keeps the saved one. */
  secret: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};
export type EnumSpec = Common & { kind: "enum"; options: string[] };
export type NumberSpec = Common & {
  kind: "number";
  integer: boolean;
  min?: number;
  max?: number;
  exclusiveMin?: number;
};
/** An object of key → number, e.g. Packeta's `homeDeliveryCarriers` (country code → carrier id): a list of rows. */
export type MapSpec = Common & {
  kind: "map";
  keyPattern?: string;
  keyLabel: string;
  valueLabel: string;
  value: Omit<NumberSpec, keyof Common | "kind">;
};
export type SettingSpec = StringSpec | EnumSpec | NumberSpec | MapSpec;

export type MapRow = { id: number; key: string; value: string };
export type SettingsValues = Record<string, string | MapRow[]>;
/** Client-side messages by path: `sender`, `homeDeliveryCarriers[1].key`, `homeDeliveryCarriers[1].value`. */
export type SettingsErrors = Record<string, string>;

/** Names a person would say, for the settings the couriers have today; others are spelled out from camelCase. */
const LABELS: Record<string, string> = {
  apiPassword: "API password",
  sender: "Sender label",
  homeDeliveryCarriers: "Home-delivery carriers",
  clientId: "Client ID",
  clientSecret: "Client secret",
  environment: "Environment",
  timeoutMs: "Courier timeout (ms)",
  trackingStepMinutes: "Tracking step (minutes)",
};

/**
 * Help for settings whose schema has no description, or one written for the operator (environment variables)
 * rather than for the person filling the form.
 */
const HINTS: Record<string, string> = {
  apiPassword: "The API password from the client section of Packeta's administration.",
  environment: "Production registers real shipments; Test uses PPL's sandbox.",
  timeoutMs: "How long the courier has to answer one call. Empty: the platform's default.",
  trackingStepMinutes: "Minutes between the sandbox's tracking steps. Empty: 60.",
};

const OPTION_LABELS: Record<string, string> = { production: "Production", test: "Test (PPL's sandbox)" };

/** A readable name for an enum value. */
export const optionLabel = (value: string): string => OPTION_LABELS[value] ?? value;

const humanize = (name: string): string => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const settingLabel = (name: string): string => LABELS[name] ?? humanize(name);

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
/** zod writes Number.MAX_SAFE_INTEGER for "no upper limit" of an integer: no limit worth saying. */
const limit = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined;
};

/** A property's single `type` (a union of types is a shape the form does not render). */
const typeOf = (prop: Json): string | undefined => (typeof prop.type === "string" ? prop.type : undefined);

function cleanDescription(prop: Json): string | undefined {
  if (typeof prop.description !== "string" || !prop.description.trim()) return undefined;
  // Descriptions are written in Markdown for the API reference; the form shows plain text.
  return prop.description.replace(/`([^`]*)`/g, "$1").trim();
}

function stringLimits(minLength?: number, maxLength?: number): string | undefined {
  if (minLength !== undefined && minLength === maxLength) return `Exactly ${minLength} characters.`;
  if (maxLength !== undefined)
    return minLength && minLength > 1 ? `${minLength} to ${maxLength} characters.` : `Up to ${maxLength} characters.`;
  if (minLength && minLength > 1) return `At least ${minLength} characters.`;
  return undefined;
}

function numberLimits(spec: {
  integer: boolean;
  min?: number;
  max?: number;
  exclusiveMin?: number;
}): string | undefined {
  const what = spec.integer ? "A whole number" : "A number";
  if (spec.min !== undefined && spec.max !== undefined) return `${what} from ${spec.min} to ${spec.max}.`;
  if (spec.exclusiveMin === 0)
    return spec.max !== undefined ? `${what} above 0, up to ${spec.max}.` : `${what} above 0.`;
  if (spec.min !== undefined) return `${what} of at least ${spec.min}.`;
  if (spec.max !== undefined) return `${what} up to ${spec.max}.`;
  return undefined;
}

const join = (...parts: (string | undefined)[]): string | undefined => parts.filter(Boolean).join(" ") || undefined;

function numberSpecOf(prop: Json): Omit<NumberSpec, keyof Common | "kind"> | null {
  const type = typeOf(prop);
  if (type !== "integer" && type !== "number") return null;
  return {
    integer: type === "integer",
    min: limit(prop.minimum),
    max: limit(prop.maximum),
    exclusiveMin: limit(prop.exclusiveMinimum),
  };
}

function specOf(name: string, prop: unknown, required: boolean, secret: boolean): SettingSpec | null {
  if (!isRecord(prop)) return null;
  const label = settingLabel(name);
  const description = HINTS[name] ?? cleanDescription(prop);
  const type = typeOf(prop);
  if (Array.isArray(prop.enum)) {
    if (!prop.enum.every((o) => typeof o === "string")) return null;
    return { kind: "enum", name, label, hint: description, required, options: prop.enum as string[] };
  }
  if (type === "string") {
    const minLength = limit(prop.minLength);
    const maxLength = limit(prop.maxLength);
    const pattern = typeof prop.pattern === "string" ? prop.pattern : undefined;
    return {
      kind: "string",
      name,
      label,
      hint: join(description, stringLimits(minLength, maxLength)),
      required,
      secret,
      minLength,
      maxLength,
      pattern,
    };
  }
  const number = numberSpecOf(prop);
  if (number)
    return { kind: "number", name, label, hint: join(description, numberLimits(number)), required, ...number };
  if (type === "object" && !isRecord(prop.properties) && isRecord(prop.additionalProperties)) {
    const value = numberSpecOf(prop.additionalProperties);
    if (!value) return null;
    const keys = isRecord(prop.propertyNames) ? prop.propertyNames : {};
    const keyPattern = typeof keys.pattern === "string" ? keys.pattern : undefined;
    // Country-keyed maps (a two-letter pattern) say so in their column names.
    const countries = keyPattern === "^[A-Z]{2}$";
    return {
      kind: "map",
      name,
      label,
      hint: description,
      required,
      keyPattern,
      keyLabel: countries ? "Country" : "Key",
      valueLabel: name === "homeDeliveryCarriers" ? "Carrier ID" : "Value",
      value,
    };
  }
  return null;
}

/**
 * One field per setting of the schema, in its order; null when any setting has a shape the form cannot render
 * (then the whole settings object is edited as JSON, so nothing is lost).
 */
export function settingsFields(schema: unknown, secretFields: readonly string[]): SettingSpec[] | null {
  if (!isRecord(schema) || schema.type !== "object" || !isRecord(schema.properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields: SettingSpec[] = [];
  for (const [name, prop] of Object.entries(schema.properties)) {
    const spec = specOf(name, prop, required.has(name), secretFields.includes(name));
    if (!spec) return null;
    fields.push(spec);
  }
  return fields;
}

/**
 * The inputs' starting values: empty for a new profile; a saved profile's settings as text, except secrets, which
 * start empty (their masked value is shown as a hint, and empty keeps them).
 */
export function initialValues(fields: readonly SettingSpec[], saved: Json = {}): SettingsValues {
  const values: SettingsValues = {};
  for (const field of fields) {
    const value = saved[field.name];
    if (field.kind === "map") {
      values[field.name] = isRecord(value)
        ? Object.entries(value).map(([key, v], i) => ({ id: i, key, value: String(v ?? "") }))
        : [];
    } else if (field.kind === "string" && field.secret) {
      values[field.name] = "";
    } else {
      values[field.name] = value === undefined || value === null ? "" : String(value);
    }
  }
  return values;
}

/** The masked value a view shows of a saved secret (`****abcd`), if the setting has one. */
export function savedSecret(saved: Json, name: string): string | undefined {
  const value = saved[name];
  return typeof value === "string" && value ? value : undefined;
}

function checkNumber(raw: string, spec: Omit<NumberSpec, keyof Common | "kind">): number | string {
  const text = raw.trim().replace(",", ".");
  const value = Number(text);
  if (!text || !Number.isFinite(value)) return spec.integer ? "Enter a whole number." : "Enter a number.";
  if (spec.integer && !Number.isInteger(value)) return "Enter a whole number.";
  const range = numberLimits(spec);
  const outside =
    (spec.min !== undefined && value < spec.min) ||
    (spec.max !== undefined && value > spec.max) ||
    (spec.exclusiveMin !== undefined && value <= spec.exclusiveMin);
  return outside && range ? `Must be ${range.charAt(0).toLowerCase()}${range.slice(1)}` : value;
}

/**
 * The settings to send, or the messages to show at the inputs. Empty optional inputs are left out; in an edit
 * (`keepSecrets`) an empty secret is left out too, which keeps the saved one. The server checks everything again.
 */
export function toSettings(
  fields: readonly SettingSpec[],
  values: SettingsValues,
  { keepSecrets = false }: { keepSecrets?: boolean } = {},
): { settings: Json } | { errors: SettingsErrors } {
  const settings: Json = {};
  const errors: SettingsErrors = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "map") {
      const rows = (Array.isArray(value) ? value : []).filter((r) => r.key.trim() || r.value.trim());
      const map: Record<string, number> = {};
      rows.forEach((row, i) => {
        const key = field.keyPattern === "^[A-Z]{2}$" ? row.key.trim().toUpperCase() : row.key.trim();
        const at = `${field.name}[${i}]`;
        if (!key) errors[`${at}.key`] = "Required.";
        else if (field.keyPattern && !new RegExp(field.keyPattern).test(key))
          errors[`${at}.key`] =
            field.keyPattern === "^[A-Z]{2}$" ? "Use a two-letter country code, e.g. CZ." : "Not a valid key.";
        else if (key in map) errors[`${at}.key`] = `${key} is already in the list.`;
        const number = checkNumber(row.value, field.value);
        if (typeof number === "string") errors[`${at}.value`] = row.value.trim() ? number : "Required.";
        else if (key) map[key] = number;
      });
      if (rows.length > 0) settings[field.name] = map;
      else if (field.required) errors[field.name] = "Add at least one row.";
      continue;
    }
    const text = typeof value === "string" ? value : "";
    if (!text.trim()) {
      if (field.kind === "string" && field.secret && keepSecrets) continue;
      if (field.required) errors[field.name] = "Required.";
      continue;
    }
    if (field.kind === "number") {
      const number = checkNumber(text, field);
      if (typeof number === "string") errors[field.name] = number;
      else settings[field.name] = number;
    } else if (field.kind === "enum") {
      if (field.options.includes(text)) settings[field.name] = text;
      else errors[field.name] = `Choose one of ${field.options.map(optionLabel).join(", ")}.`;
    } else {
      // Secrets are sent as typed (a pasted password's spaces are its own); other text is trimmed.
      const sent = field.secret ? text : text.trim();
      const limits = stringLimits(field.minLength, field.maxLength);
      if (
        (field.minLength !== undefined && sent.length < field.minLength) ||
        (field.maxLength !== undefined && sent.length > field.maxLength)
      )
        errors[field.name] = `${limits ?? "Wrong length."} This has ${sent.length}.`;
      else settings[field.name] = sent;
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { settings };
}

/** A saved profile's settings in words, for the profiles list: label and value, secrets as the view masks them. */
export function describeSettings(
  fields: readonly SettingSpec[] | null,
  saved: Json,
): { label: string; value: string }[] {
  return Object.entries(saved).map(([name, value]) => {
    const field = fields?.find((f) => f.name === name);
    const label = field?.label ?? settingLabel(name);
    if (isRecord(value))
      return {
        label,
        value: Object.entries(value)
          .map(([k, v]) => `${k} → ${String(v)}`)
          .join(", "),
      };
    return { label, value: field?.kind === "enum" ? optionLabel(String(value)) : String(value) };
  });
}
