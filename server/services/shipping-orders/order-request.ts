import { z } from "zod";
import { normalisePhone, PHONE_PATTERN, PHONE_PATTERN_PROBLEM, type PhoneReading } from "@/lib/phone";
import { ISO_COUNTRIES, ISO_CURRENCIES, ZIP_FORMATS } from "./countries";

/**
 * The order as partners send it (PascalCase). This schema validates requests, types the services and
 * generates the OpenAPI document. Field-level issues carry the contract's message codes in `params.code`
 * where zod's own issue kind does not map to one (see `validation-messages.ts`).
 */

/** Optional text: absent, null, empty or blank all mean "not given". */
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v === null ? undefined : v),
    z.string().trim().max(max).optional(),
  );

const requiredText = (max: number) => z.string().trim().min(1).max(max);

/** An optional field: null means the same as leaving it out (the contract's rule for every optional field). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), schema.optional());

const positiveNumber = z.number().positive();
/** What the columns hold (numeric(8,2) for dimensions, numeric(12,2) for prices): beyond it PostgreSQL fails the insert. */
const MAX_DIMENSION_CM = 999_999.99;
const MAX_PRICE = 9_999_999_999.99;
const dimension = positiveNumber.max(MAX_DIMENSION_CM);

const twoDecimals = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;

/** Each recipient's phone is read once: the check that reports it and the overwrite that stores it share the reading. */
const phoneReadings = new WeakMap<object, PhoneReading | undefined>();

/**
 * The phone read by the recipient's country (a national number needs it); undefined when there is none or its
 * characters are already refused at the field.
 */
function phoneOf(r: { Phone?: unknown; Country?: unknown }): PhoneReading | undefined {
  if (phoneReadings.has(r)) return phoneReadings.get(r);
  const reading =
    typeof r.Phone === "string" && PHONE_PATTERN.test(r.Phone)
      ? normalisePhone(r.Phone, typeof r.Country === "string" && ISO_COUNTRIES.has(r.Country) ? r.Country : null)
      : undefined;
  phoneReadings.set(r, reading);
  return reading;
}

export const recipientSchema = z
  .object({
    Name: requiredText(100),
    Company: optionalText(100),
    Street: requiredText(100),
    City: requiredText(60),
    Zip: requiredText(16),
    Country: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => ISO_COUNTRIES.has(v), {
        message: "must be an ISO 3166-1 alpha-2 country code",
        params: { code: "INVALID_FORMAT" },
      }),
    Email: z.preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
      z.email().max(254).optional(),
    ),
    Phone: z.preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
      z
        .string()
        .regex(PHONE_PATTERN, PHONE_PATTERN_PROBLEM)
        .optional()
        .describe(
          "International (`+421 912 345 678`), or national for `Country` (`777 123 456`, `00420 777 123 456` for CZ); " +
            "a valid number of its country. Answered and sent to the courier in E.164 (`+420777123456`).",
        ),
    ),
  })
  .superRefine((r, ctx) => {
    const format = ZIP_FORMATS[r.Country];
    if (format && typeof r.Zip === "string" && !format.pattern.test(r.Zip)) {
      ctx.addIssue({
        code: "custom",
        path: ["Zip"],
        message: `must look like ${format.example} for ${r.Country}`,
        params: { code: "INVALID_FORMAT" },
      });
    }
    const phone = phoneOf(r);
    if (phone && !phone.ok) {
      ctx.addIssue({ code: "custom", path: ["Phone"], message: phone.problem, params: { code: "INVALID_FORMAT" } });
    }
  })
  .overwrite((r) => {
    const phone = phoneOf(r);
    return phone?.ok ? { ...r, Phone: phone.e164 } : r;
  });

export const parcelSchema = z.object({
  Weight: positiveNumber.describe("kg, more than 0 and at most the courier's limit"),
  Length: optional(dimension.describe("cm")),
  Width: optional(dimension.describe("cm")),
  Height: optional(dimension.describe("cm")),
  Reference: optionalText(64),
});

export const MAX_PARCELS = 20;

export const orderRequestSchema = z
  .object({
    ReferenceNumber: requiredText(64),
    ExternalReference: optionalText(64),
    ReferenceSource: optionalText(64).describe("With SourceIdentifier: both or neither; blank means `api`."),
    SourceIdentifier: optionalText(64).describe("With ReferenceSource: both or neither; blank means `default`."),
    Service: optionalText(32).describe("Courier service code; default from the courier profile."),
    Recipient: recipientSchema,
    Parcels: z.array(parcelSchema).min(1).max(MAX_PARCELS),
    CodPrice: optional(
      z
        .number()
        .min(0)
        .max(MAX_PRICE)
        .refine(twoDecimals, { message: "must have at most 2 decimals", params: { code: "INVALID_FORMAT" } }),
    ),
    CodCurrency: optionalText(3)
      .transform((v) => v?.toUpperCase())
      .refine((v) => v === undefined || ISO_CURRENCIES.has(v), {
        message: "must be an ISO 4217 currency code",
        params: { code: "INVALID_FORMAT" },
      }),
    VariableSymbol: z.preprocess(
      (v) =>
        typeof v === "number" && Number.isInteger(v) && v >= 0
          ? String(v)
          : typeof v === "string" && v.trim() === ""
            ? undefined
            : (v ?? undefined),
      z
        .string()
        .regex(/^\d{1,10}$/, "must be 1 to 10 digits")
        .optional(),
    ),
    InsurancePrice: optional(z.number().min(0).max(MAX_PRICE)),
    Note: optionalText(300),
    PickupPoint: optionalText(64).describe("Required by services that deliver to a pickup point; ignored otherwise."),
  })
  .superRefine((o, ctx) => {
    if (o.CodPrice !== undefined && o.CodCurrency === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["CodCurrency"],
        message: "is required when CodPrice is given",
        params: { code: "REQUIRED" },
      });
    }
    if ((o.ReferenceSource === undefined) !== (o.SourceIdentifier === undefined)) {
      const missing = o.ReferenceSource === undefined ? "ReferenceSource" : "SourceIdentifier";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: `must be given together with ${missing === "ReferenceSource" ? "SourceIdentifier" : "ReferenceSource"} (both or neither)`,
        params: { code: "SOURCE_PAIR_INCOMPLETE" },
      });
    }
  });

export type OrderRequest = z.output<typeof orderRequestSchema>;

/** Canonical field names by lower-case name, for case-insensitive matching. */
const NAMES = {
  order: Object.keys(orderRequestSchema.shape),
  recipient: Object.keys(recipientSchema.shape),
  parcel: Object.keys(parcelSchema.shape),
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function pick(value: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = byLower.get(key.toLowerCase());
    if (name) out[name] = v;
  }
  return out;
}

/**
 * Matches field names case-insensitively and drops unknown fields, so nothing unexpected is ever stored.
 * Values that are not objects are passed through for the schema to report.
 */
export function canonicalOrder(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const order = pick(raw, NAMES.order);
  if (isRecord(order.Recipient)) order.Recipient = pick(order.Recipient, NAMES.recipient);
  if (Array.isArray(order.Parcels)) order.Parcels = order.Parcels.map((p) => (isRecord(p) ? pick(p, NAMES.parcel) : p));
  return order;
}

/** The longest text kept of any field of a stored order: past every field's own limit (300), so "too long" still shows. */
export const STORED_TEXT_MAX = 1000;

/** A field's value as stored: text cut to STORED_TEXT_MAX, numbers, booleans and null as they are, anything else null. */
function storedValue(v: unknown): unknown {
  if (typeof v === "string") return v.slice(0, STORED_TEXT_MAX);
  if (typeof v === "number" || typeof v === "boolean") return v;
  return null;
}

const storedFields = (v: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(v).map(([name, value]) => [name, storedValue(value)]));

/**
 * What is kept of an order for review (validation results, refused attempts): the order as the platform reads it
 * (`canonicalOrder`: known fields only, canonical names), each value bounded (text cut, no nested values where the
 * platform reads a scalar, at most MAX_PARCELS parcels), so a request's size never decides what is stored.
 */
export function storedOrder(raw: unknown): unknown {
  const order = canonicalOrder(raw);
  if (!isRecord(order)) return storedValue(order);
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(order)) {
    if (name === "Recipient") out[name] = isRecord(v) ? storedFields(v) : storedValue(v);
    else if (name === "Parcels")
      out[name] = Array.isArray(v)
        ? v.slice(0, MAX_PARCELS).map((p) => (isRecord(p) ? storedFields(p) : storedValue(p)))
        : storedValue(v);
    else out[name] = storedValue(v);
  }
  return out;
}
