import { and, asc, count, eq, gte, like, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { pickupPoints, POINT_TYPES, type PickupPointRow } from "@/db/schema";
import { AppError, badField, notFound } from "@/server/errors";
import { normalizeSearchText } from "@/server/pickup-points/search-text";
import { MIN_INDEXED_WORD } from "@/lib/pickup-point-search";

export { MIN_INDEXED_WORD };
import { envelope, offsetOf, type Page, type Paging } from "../pagination";

/** A point as the API answers it (contract "Pickup points" → "A point"). */
export const pickupPointView = z.object({
  id: z.string(),
  courier: z.string(),
  type: z.enum(POINT_TYPES),
  network: z.string().describe('e.g. "packeta", "zbox", "alzabox", "parcelshop", "parcelbox"'),
  name: z.string(),
  street: z.string(),
  city: z.string(),
  zip: z.string(),
  country: z.string().describe("ISO 3166-1 alpha-2, upper case"),
  latitude: z.number(),
  longitude: z.number(),
  openingHours: z.array(
    z.object({
      day: z.number().int().min(1).max(7).describe("1 = Monday … 7 = Sunday"),
      from: z.string(),
      to: z.string(),
    }),
  ),
  cod: z.boolean().describe("Cash on delivery can be paid there"),
  cardPayment: z.boolean(),
  maxWeightKg: z.number().nullable(),
  maxSizeCm: z.object({ length: z.number(), width: z.number(), height: z.number() }).nullable(),
  open: z.boolean().describe("Accepting parcels now"),
  closedSince: z.string().nullable().describe("yyyy-MM-dd, or null while open"),
  distanceKm: z.number().optional().describe("With `near`: the distance from it"),
});

export type PickupPointView = z.infer<typeof pickupPointView>;

export type PickupPointSearch = Paging & {
  courier: string;
  country?: string;
  /** Name, street, city or zip; case and accents ignored. */
  q?: string;
  zip?: string;
  near?: { lat: number; lon: number };
  /** With `near`; default 10, at most 100. */
  radiusKm?: number;
  type?: (typeof POINT_TYPES)[number];
  /** Only points where cash on delivery can be paid. */
  cod?: boolean;
  /** Only points that take that weight. */
  weightKg?: number;
  /** Default true: only points accepting parcels now. */
  open?: boolean;
};

const EARTH_RADIUS_KM = 6371;
/**
 * Up to this many matches, a search without `near` answers them in name order; past it, in the directory's own order
 * (courier, id), read from the primary key and stopped at the page: sorting thousands of rows by name to show 20 costs
 * more than the search's budget, and a list nobody reads to its end asks for a more precise query, not a sort.
 */
export const MAX_NAME_ORDERED = 1000;
export const KM_PER_DEGREE_LAT = 111.32;
/**
 * The distinct words of `q` a search takes: each is a condition every candidate row is tested against. Enough for a
 * whole address ("Náměstí Míru 12, 602 00 Brno": six), which the picker searches by when a point is chosen.
 */
export const MAX_SEARCH_WORDS = 8;
/**
 * The statements of one search are cancelled past this (milliseconds): a bounded search takes a few, tens under load;
 * one that still runs this long holds a connection and a core that other tenants' requests are waiting for.
 */
export const SEARCH_TIMEOUT_MS = 1000;

/** The last page a search answers: the one holding its last match (page 1 when there is none). */
export const lastSearchPage = (matches: number, pageSize: number) => Math.max(1, Math.ceil(matches / pageSize));

/** Every refusal of a search's input beyond its schema: the service throws these, the OpenAPI document shows them. */
export const searchRefusals = {
  tooManyWords: () => badField("q", `q must have at most ${MAX_SEARCH_WORDS} different words`),
  noIndexedWord: () =>
    badField(
      "q",
      `q needs a word of at least ${MIN_INDEXED_WORD} letters or digits, unless near or zip narrows the search`,
    ),
  pastMatches: (matches: number, pageSize: number) =>
    badField(
      "page",
      `page must be at most ${lastSearchPage(matches, pageSize)} with pageSize ${pageSize}: the search has ${matches} matches`,
    ),
  timedOut: (cause?: unknown) =>
    new AppError("unavailable", "The pickup-point search took too long; narrow it (q, near, zip) or retry shortly.", {
      details: { retryAfterSeconds: 1 },
      cause,
    }),
};

/**
 * The words of `q` a search matches, normalized as the stored text is: each once, and none that lies inside another
 * ("pra" in "praha"): every row holding the longer word holds it too.
 */
export function searchWords(q: string | undefined): string[] {
  const distinct = [
    ...new Set(
      normalizeSearchText(q ?? "")
        .split(" ")
        .filter(Boolean),
    ),
  ];
  return distinct.filter((word) => !distinct.some((other) => other !== word && other.includes(word)));
}

/**
 * The one expression the search filters `zip` by, spaces ignored: `pickup_points_compact_zip_idx` is built on
 * exactly this, and PostgreSQL uses an expression index only for the same expression.
 */
export const compactZipSql = () => sql`replace(${pickupPoints.zip}, ' ', '')`;

/**
 * Charges a search before it runs, once its work is known to be bounded (what it counts: pickupPointSearchCost, by who
 * asks). Throws the door's rate-limit refusal.
 */
export type ChargeSearch = () => Promise<void>;

export function toPickupPointView(row: PickupPointRow, distanceKm?: number): PickupPointView {
  return {
    id: row.id,
    courier: row.courier,
    type: row.type,
    network: row.network,
    name: row.name,
    street: row.street,
    city: row.city,
    zip: row.zip,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    openingHours: row.openingHours,
    cod: row.cod,
    cardPayment: row.cardPayment,
    maxWeightKg: row.maxWeightKg,
    maxSizeCm: row.maxSizeCm,
    open: row.open,
    closedSince: row.closedSince,
    ...(distanceKm === undefined ? {} : { distanceKm: Math.round(distanceKm * 100) / 100 }),
  };
}

/** Great-circle distance in km (haversine), as SQL over the row's coordinates. */
export const distanceKmSql = (lat: number, lon: number) =>
  sql<number>`(2 * ${EARTH_RADIUS_KM} * asin(sqrt(
    power(sin(radians(${pickupPoints.latitude} - ${lat}) / 2), 2) +
    cos(radians(${lat})) * cos(radians(${pickupPoints.latitude})) * power(sin(radians(${pickupPoints.longitude} - ${lon}) / 2), 2)
  )))`;

/**
 * The bounding box of a circle: the latitude/longitude ranges that a btree on (courier, latitude, longitude) can
 * narrow to before the exact distance is computed for the few rows left.
 */
export function boundingBox(lat: number, lon: number, radiusKm: number) {
  const dLat = radiusKm / KM_PER_DEGREE_LAT;
  const dLon = radiusKm / (KM_PER_DEGREE_LAT * Math.max(Math.cos((lat * Math.PI) / 180), 0.01));
  return { minLat: lat - dLat, maxLat: lat + dLat, minLon: lon - dLon, maxLon: lon + dLon };
}

/** Escapes LIKE's wildcards in user text. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Searches one courier's directory (contract: GET /couriers/{courier_id}/pickup-points). The work is bounded before any
 * statement runs: at most MAX_SEARCH_WORDS words, none that only a scan could find; then the search is charged
 * (`charge`, pickupPointSearchCost) and its statements run under SEARCH_TIMEOUT_MS. A page past the matches is
 * refused after the count, before any row is read.
 */
export async function searchPickupPoints(
  db: Executor,
  input: PickupPointSearch,
  charge: ChargeSearch = async () => {},
): Promise<Page<PickupPointView>> {
  const words = searchWords(input.q);
  if (words.length > MAX_SEARCH_WORDS) throw searchRefusals.tooManyWords();
  const narrowed = input.near !== undefined || Boolean(input.zip);
  if (input.q && !narrowed && !words.some((word) => word.length >= MIN_INDEXED_WORD))
    throw searchRefusals.noIndexedWord();
  await charge();
  try {
    // SET LOCAL, in a transaction of its own: behind PgBouncer in transaction mode a session setting would stay on
    // whichever server connection it landed on, for someone else's statements.
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${SEARCH_TIMEOUT_MS}`));
      return await runSearch(tx, input, words);
    });
  } catch (error) {
    if (isStatementCancelled(error)) throw searchRefusals.timedOut(error);
    throw error;
  }
}

/** PostgreSQL's SQLSTATE for a statement cancelled (here: by statement_timeout). */
const QUERY_CANCELED = "57014";

/** Whether the database cancelled the statement: the driver's SQLSTATE, under drizzle's "Failed query" wrapper or not. */
export function isStatementCancelled(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string") return code === QUERY_CANCELED;
    current = cause;
  }
  return false;
}

async function runSearch(db: Executor, input: PickupPointSearch, words: string[]): Promise<Page<PickupPointView>> {
  const conditions: (SQL | undefined)[] = [eq(pickupPoints.courier, input.courier)];
  if (input.country) conditions.push(eq(pickupPoints.country, input.country.toUpperCase()));
  if (input.open ?? true) conditions.push(eq(pickupPoints.open, true));
  if (input.type) conditions.push(eq(pickupPoints.type, input.type));
  if (input.cod) conditions.push(eq(pickupPoints.cod, true));
  if (input.weightKg !== undefined)
    conditions.push(sql`(${pickupPoints.maxWeightKg} is null or ${pickupPoints.maxWeightKg} >= ${input.weightKg})`);
  if (input.zip) conditions.push(eq(compactZipSql(), input.zip.replace(/\s+/g, "")));
  for (const word of words)
    conditions.push(
      word.length >= MIN_INDEXED_WORD
        ? like(pickupPoints.searchText, `%${likeLiteral(word)}%`)
        : // Not an operator the trigram index serves: a filter over the rows the other conditions found, never a scan.
          sql`strpos(${pickupPoints.searchText}, ${word}) > 0`,
    );
  let distance: SQL<number> | undefined;
  if (input.near) {
    const radiusKm = input.radiusKm ?? 10;
    const box = boundingBox(input.near.lat, input.near.lon, radiusKm);
    distance = distanceKmSql(input.near.lat, input.near.lon);
    conditions.push(
      gte(pickupPoints.latitude, box.minLat),
      lte(pickupPoints.latitude, box.maxLat),
      gte(pickupPoints.longitude, box.minLon),
      lte(pickupPoints.longitude, box.maxLon),
      lte(distance, radiusKm),
    );
  }
  const where = and(...conditions);
  /*
   * The exact count (the envelope's itemsCount is the total, contract "Pagination envelope"). With attribute filters
   * only it is an index-only scan of pickup_points_attributes_idx, which holds every column those filters read; with
   * q, zip or near it counts the candidates their index narrowed to, under the statement timeout.
   */
  const [total] = await db.select({ n: count() }).from(pickupPoints).where(where);
  const matches = total?.n ?? 0;
  if (input.page > lastSearchPage(matches, input.pageSize)) throw searchRefusals.pastMatches(matches, input.pageSize);
  const order = distance
    ? [asc(distance), asc(pickupPoints.name), asc(pickupPoints.id)]
    : matches <= MAX_NAME_ORDERED
      ? [asc(pickupPoints.name), asc(pickupPoints.id)]
      : [asc(pickupPoints.courier), asc(pickupPoints.id)];
  // Page 1 of no matches needs no second statement: it is empty.
  const rows =
    matches === 0
      ? []
      : await db
          .select({ row: pickupPoints, distanceKm: distance ?? sql<null>`null` })
          .from(pickupPoints)
          .where(where)
          .orderBy(...order)
          .limit(input.pageSize)
          .offset(offsetOf(input));
  return envelope(
    rows.map(({ row, distanceKm }) => toPickupPointView(row, distanceKm === null ? undefined : Number(distanceKm))),
    matches,
    input,
  );
}

/** One point of a courier's directory, closed ones included (contract: GET …/pickup-points/{id}). */
export async function getPickupPoint(db: Executor, courier: string, id: string): Promise<PickupPointView> {
  const [row] = await db
    .select()
    .from(pickupPoints)
    .where(and(eq(pickupPoints.courier, courier), eq(pickupPoints.id, id)));
  if (!row) throw notFound("Pickup point");
  return toPickupPointView(row);
}
