import { sql } from "drizzle-orm";
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/** One opening interval of a point: `day` 1 = Monday … 7 = Sunday, `from`/`to` "HH:mm" (contract: "A point"). */
export type OpeningInterval = { day: number; from: string; to: string };

/** A locker compartment's largest inner size, in cm. */
export type SizeCm = { length: number; width: number; height: number };

export const POINT_TYPES = ["POINT", "LOCKER"] as const;
export type PointType = (typeof POINT_TYPES)[number];

/**
 * A pickup point or parcel locker of one courier's directory, as its feed last described it (contract: "Pickup
 * points"). Keyed on the courier's own id (Packeta's branch id, PPL's access-point code), which is what an order's
 * `PickupPoint` names. Rows are never deleted by a sync: a point that leaves its feed is kept with `open = false`
 * and `closedSince` set, so an order naming it is told "closed", not "unknown".
 */
export const pickupPoints = pgTable(
  "pickup_points",
  {
    courier: text("courier").notNull(),
    id: text("id").notNull(),
    type: text("type").$type<PointType>().notNull(),
    /** e.g. "packeta", "zbox", "alzabox", "parcelshop", "parcelbox". */
    network: text("network").notNull(),
    name: text("name").notNull(),
    street: text("street").notNull(),
    city: text("city").notNull(),
    zip: text("zip").notNull(),
    /** ISO 3166-1 alpha-2, upper case. */
    country: text("country").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    openingHours: jsonb("opening_hours").$type<OpeningInterval[]>().notNull().default([]),
    cod: boolean("cod").notNull(),
    cardPayment: boolean("card_payment").notNull(),
    maxWeightKg: doublePrecision("max_weight_kg"),
    maxSizeCm: jsonb("max_size_cm").$type<SizeCm>(),
    /** Accepting parcels now (listed, in operation, not on holiday/over capacity). */
    open: boolean("open").notNull(),
    /** The day the point was first seen closed or gone from its feed; null while open. */
    closedSince: date("closed_since", { mode: "string" }),
    /**
     * Name, street, city and zip, lower-cased and with accents stripped in JavaScript (`normalizeSearchText`), so a
     * search for "plzen" finds "Plzeň" without the `unaccent` extension (whose dictionary differs by installation).
     */
    searchText: text("search_text").notNull(),
    /** A hash of the feed's fields as stored: a sync rewrites a row only when it changed. */
    feedHash: text("feed_hash").notNull(),
    /** The start of the last sync whose feed listed the point: after a complete sync, older rows left the feed. */
    seenAt: instant("seen_at").notNull(),
    updatedAt: instant("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.courier, t.id] }),
    /*
     * Nearest points: a plain btree on (courier, latitude, longitude) read as a bounding box (latitude range, longitude
     * checked in the index), then the exact haversine distance over the few hundred rows left. Chosen over `cube` +
     * `earthdistance` (a GiST on ll_to_earth, ordered by <->): both exist on PostgreSQL 15 and PGlite 0.5.16, but the
     * box on a btree meets the figures (bench/pickup-points.ts: well under 15 ms p50 for the nearest 20 within 10 km
     * over 100,000 points) with no extension to install, and earthdistance's `earth` type lives in the schema it was
     * created in, which breaks on a managed PostgreSQL whose role cannot create it.
     */
    index("pickup_points_location_idx").on(t.courier, t.latitude, t.longitude),
    index("pickup_points_zip_idx").on(t.courier, t.country, t.zip),
    /*
     * The search's exact count with attribute filters only (country, open, type, cod, weightKg): every column those
     * filters read is in this index, so the count is an index-only scan, never a read of the table.
     */
    index("pickup_points_attributes_idx").on(t.courier, t.country, t.open, t.type, t.cod, t.maxWeightKg),
    /*
     * The search's `zip` filter, spaces ignored ("11000" finds "110 00"): an expression index, so the search must use
     * this very expression (`compactZipSql` in search-pickup-points.ts) for PostgreSQL to match it.
     */
    index("pickup_points_compact_zip_idx").on(t.courier, sql`replace(${t.zip}, ' ', '')`),
    /*
     * Text search: `search_text LIKE '%word%'` per word, served by a trigram GIN index (pg_trgm, trusted since
     * PostgreSQL 13, so a database owner may create it; built into PGlite's contrib and loaded in db/pglite.ts). The
     * migration creates the extension and this index only when it can: without them the same query still answers,
     * by a scan (correct, slower), so a managed PostgreSQL whose role lacks the right is not blocked from migrating.
     */
    index("pickup_points_search_text_idx").using("gin", t.searchText.op("gin_trgm_ops")),
  ],
);

export type PickupPointRow = typeof pickupPoints.$inferSelect;

/**
 * Packeta's carriers (its v5 `carrier.json`): home-delivery and external pickup-point carriers, with the
 * requirements an order for them must meet (phone, e-mail, separate house number, size, COD, weight).
 */
export const packetaCarriers = pgTable("packeta_carriers", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** ISO 3166-1 alpha-2, upper case. */
  country: text("country").notNull(),
  currency: text("currency").notNull(),
  available: boolean("available").notNull(),
  pickupPoints: boolean("pickup_points").notNull(),
  apiAllowed: boolean("api_allowed").notNull(),
  separateHouseNumber: boolean("separate_house_number").notNull(),
  customsDeclarations: boolean("customs_declarations").notNull(),
  requiresEmail: boolean("requires_email").notNull(),
  requiresPhone: boolean("requires_phone").notNull(),
  requiresSize: boolean("requires_size").notNull(),
  disallowsCod: boolean("disallows_cod").notNull(),
  maxWeightKg: doublePrecision("max_weight_kg"),
  seenAt: instant("seen_at").notNull(),
  updatedAt: instant("updated_at").notNull().defaultNow(),
});

export type PacketaCarrierRow = typeof packetaCarriers.$inferSelect;

/**
 * The state of one directory feed's sync (`packeta-points`, `packeta-boxes`, `packeta-carriers`, `ppl-access-points`):
 * when it last succeeded (what `GET /couriers` reports as `syncedAt`), how long it took, how many it holds, and the
 * last failure. A failed sync leaves the directory and `lastSuccessAt` as they were.
 */
export const pickupPointSyncs = pgTable("pickup_point_syncs", {
  feed: text("feed").primaryKey(),
  courier: text("courier").notNull(),
  lastStartedAt: instant("last_started_at"),
  lastSuccessAt: instant("last_success_at"),
  lastDurationMs: integer("last_duration_ms"),
  /** Rows the feed listed in its last successful sync. */
  lastCount: integer("last_count"),
  /**
   * The feed's open points after its last successful sync (`GET /couriers` sums them per courier): counted once per
   * sync, not on every request.
   */
  lastOpenCount: integer("last_open_count"),
  lastError: text("last_error"),
  lastErrorAt: instant("last_error_at"),
});

/** Which couriers have a pickup-point directory at all (`GET /couriers`: `pickupPoints` null for the others). */
export const COURIERS_WITH_POINTS = ["packeta", "ppl"] as const;
