import { z } from "zod";
import { POINT_TYPES } from "@/db/schema";
import { pagingQuery } from "../pagination";
import type { PickupPointSearch } from "./search-pickup-points";

export const MAX_RADIUS_KM = 100;
export const DEFAULT_RADIUS_KM = 10;

const NEAR = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/** `near`: "lat,lon" in degrees, latitude -90..90 and longitude -180..180. */
const near = z
  .string()
  .transform((value, ctx) => {
    const m = NEAR.exec(value);
    const lat = m ? Number(m[1]) : NaN;
    const lon = m ? Number(m[2]) : NaN;
    if (!m || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      ctx.addIssue({
        code: "custom",
        message: 'near must be "lat,lon" in degrees (latitude -90..90, longitude -180..180), e.g. "50.0755,14.4378"',
      });
      return z.NEVER;
    }
    return { lat, lon };
  })
  .describe('"lat,lon" in degrees, e.g. "50.0755,14.4378"; the answer is then ordered by distance');

const radiusKm = z
  .string()
  .regex(/^\d{1,3}(\.\d+)?$/, `radiusKm must be a number of km, more than 0 and at most ${MAX_RADIUS_KM}`)
  .transform(Number)
  .pipe(
    z
      .number()
      .positive(`radiusKm must be a number of km, more than 0 and at most ${MAX_RADIUS_KM}`)
      .max(MAX_RADIUS_KM, `radiusKm must be a number of km, more than 0 and at most ${MAX_RADIUS_KM}`),
  )
  .describe(`With \`near\`: km, default ${DEFAULT_RADIUS_KM}, at most ${MAX_RADIUS_KM}`);

const bool = (name: string) =>
  z.enum(["true", "false"], `${name} must be true or false`).transform((value) => value === "true");

/**
 * The query of GET /couriers/{courier_id}/pickup-points, from query strings (contract "Pickup points" → Search).
 * Every message names its parameter. Produces the search minus the courier, which comes from the path.
 */
export const pickupPointSearchQuery = pagingQuery
  .extend({
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166-1 alpha-2 code, e.g. CZ")
      .transform((c) => c.toUpperCase())
      .optional(),
    q: z
      .string()
      .trim()
      .min(1, "q must not be empty")
      .max(100, "q must have at most 100 characters")
      .optional()
      .describe('Name, street, city or zip; case and accents ignored ("plzen" finds "Plzeň"); every word must match'),
    zip: z
      .string()
      .trim()
      .min(1, "zip must not be empty")
      .max(16, "zip must have at most 16 characters")
      .optional()
      .describe("Exact zip, spaces ignored"),
    near: near.optional(),
    radiusKm: radiusKm.optional(),
    type: z.enum(POINT_TYPES, `type must be one of ${POINT_TYPES.join(", ")}`).optional(),
    cod: z
      .literal("true", 'cod must be "true" (leave it out for any point)')
      .transform(() => true)
      .optional()
      .describe("Only points where cash on delivery can be paid"),
    weightKg: z
      .string()
      .regex(/^\d{1,4}(\.\d+)?$/, "weightKg must be a positive number of kg")
      .transform(Number)
      .pipe(z.number().positive("weightKg must be a positive number of kg"))
      .optional()
      .describe("Only points that take a parcel of that weight"),
    open: bool("open").default(true).describe("Default true: only points accepting parcels now"),
  })
  .superRefine((query, ctx) => {
    if (query.radiusKm !== undefined && query.near === undefined)
      ctx.addIssue({ code: "custom", path: ["radiusKm"], message: "radiusKm needs near" });
  })
  .transform(({ radiusKm, ...query }) => ({
    ...query,
    ...(query.near ? { radiusKm: radiusKm ?? DEFAULT_RADIUS_KM } : {}),
  }));

export type PickupPointSearchQuery = z.output<typeof pickupPointSearchQuery>;

/** The query's output is a search without its courier: a type error here means the two drifted apart. */
export const toPickupPointSearch = (courier: string, query: PickupPointSearchQuery): PickupPointSearch => ({
  courier,
  ...query,
});
