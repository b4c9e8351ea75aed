import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db/client";
import type { OpeningInterval, PickupPointRow, PointType, SizeCm } from "@/db/schema";
import type { CarrierRequirements, DirectoryFacts, ShipmentRequest } from "@/server/couriers/adapter";
import type { ValidationMessage } from "@/lib/validation-message";
import { KM_PER_DEGREE_LAT } from "./search-pickup-points";

/**
 * Contract "Pickup points" → "Validation before dispatch": an order's `PickupPoint` checked against its courier's
 * directory, with suggestions. The rules are the contract's for every courier with a directory (unknown, closed,
 * country, COD, weight, size), so they live here, not in each adapter; what is courier-specific (Packeta HOME's
 * carrier) goes to the adapter as `DirectoryFacts`. A batch costs one query for the points it names (and the
 * carriers, and whether the directory was ever synced), and at most one for the suggestions of all its orders.
 */

/** What the rules read of a point: those columns of a `pickup_points` row (the opening hours only where shown). */
export type PointFacts = Pick<
  PickupPointRow,
  | "id"
  | "type"
  | "name"
  | "street"
  | "city"
  | "zip"
  | "country"
  | "latitude"
  | "longitude"
  | "cod"
  | "maxWeightKg"
  | "maxSizeCm"
  | "open"
> & { openingHours?: OpeningInterval[] };

export type BatchDirectory = DirectoryFacts & {
  /** Whether the courier's point directory was synced at least once (a `pickup_point_syncs` success row). */
  pointsSynced: boolean;
  point(id: string): PointFacts | undefined;
};

type LookupRow = {
  points_synced: boolean;
  carriers_synced: boolean;
  points: PointJson[] | null;
  carriers: CarrierJson[] | null;
};
type PointJson = {
  id: string;
  type: PointType;
  name: string;
  street: string;
  city: string;
  zip: string;
  country: string;
  latitude: number;
  longitude: number;
  cod: boolean;
  max_weight_kg: number | null;
  max_size_cm: SizeCm | null;
  open: boolean;
};
type CarrierJson = {
  id: string;
  name: string;
  country: string;
  available: boolean;
  api_allowed: boolean;
  separate_house_number: boolean;
  requires_email: boolean;
  requires_phone: boolean;
  requires_size: boolean;
  disallows_cod: boolean;
  max_weight_kg: number | null;
};

const pointOf = (p: PointJson): PointFacts => ({
  id: p.id,
  type: p.type,
  name: p.name,
  street: p.street,
  city: p.city,
  zip: p.zip,
  country: p.country,
  latitude: p.latitude,
  longitude: p.longitude,
  cod: p.cod,
  maxWeightKg: p.max_weight_kg,
  maxSizeCm: p.max_size_cm,
  open: p.open,
});

const carrierOf = (c: CarrierJson): CarrierRequirements => ({
  id: c.id,
  name: c.name,
  country: c.country,
  available: c.available,
  apiAllowed: c.api_allowed,
  separateHouseNumber: c.separate_house_number,
  requiresEmail: c.requires_email,
  requiresPhone: c.requires_phone,
  requiresSize: c.requires_size,
  disallowsCod: c.disallows_cod,
  maxWeightKg: c.max_weight_kg,
});

/**
 * One query for a batch: whether the courier's directory (and the carrier feed) was ever synced, the points its
 * orders name and the carriers their adapter asked for. Ids travel as one JSON parameter, so the statement is the
 * same whatever the batch's size.
 */
export async function lookUpDirectory(
  db: Executor,
  courier: string,
  pointIds: readonly string[],
  carrierIds: readonly string[],
): Promise<BatchDirectory> {
  const [row] = rowsOf<LookupRow>(
    await db.execute(sql`
      select
        exists (select 1 from pickup_point_syncs where courier = ${courier} and last_success_at is not null) as points_synced,
        exists (select 1 from packeta_carriers) as carriers_synced,
        (select json_agg(json_build_object(
            'id', p.id, 'type', p.type, 'name', p.name, 'street', p.street, 'city', p.city, 'zip', p.zip,
            'country', p.country, 'latitude', p.latitude, 'longitude', p.longitude, 'cod', p.cod,
            'max_weight_kg', p.max_weight_kg, 'max_size_cm', p.max_size_cm, 'open', p.open))
          from pickup_points p
          where p.courier = ${courier}
            and p.id in (select jsonb_array_elements_text(${JSON.stringify([...new Set(pointIds)])}::jsonb))) as points,
        (select json_agg(c) from packeta_carriers c
          where c.id in (select jsonb_array_elements_text(${JSON.stringify([...new Set(carrierIds)])}::jsonb))) as carriers`),
  );
  const points = new Map((row?.points ?? []).map((p) => [p.id, pointOf(p)]));
  const carriers = new Map((row?.carriers ?? []).map((c) => [c.id, carrierOf(c)]));
  return {
    pointsSynced: row?.points_synced ?? false,
    carriersSynced: row?.carriers_synced ?? false,
    point: (id) => points.get(id),
    carrier: (id) => carriers.get(id),
  };
}

/** A parcel's dimensions largest first, or null when one is missing (then no size rule applies). */
export function sortedDims(p: { length: number | null; width: number | null; height: number | null }) {
  if (p.length === null || p.width === null || p.height === null) return null;
  return [p.length, p.width, p.height].sort((a, b) => b - a) as [number, number, number];
}

/** Whether a parcel fits a compartment, each turned the best way (largest side along the largest side). */
export function fits(parcel: [number, number, number], size: SizeCm): boolean {
  const box = [size.length, size.width, size.height].sort((a, b) => b - a);
  return parcel.every((side, i) => side <= box[i]!);
}

const pickupError = (code: string, field: string, message: string): ValidationMessage => ({
  code,
  severity: "ERROR",
  field,
  message,
});

/** The contract's rules for one order's named point, as messages (empty: the point accepts the order). */
export function pickupPointMessages(order: ShipmentRequest, point: PointFacts | undefined): ValidationMessage[] {
  const id = order.pickupPoint!;
  if (!point)
    return [pickupError("PICKUP_POINT_UNKNOWN", "PickupPoint", `Pickup point ${id} is not in the courier's directory`)];
  const messages: ValidationMessage[] = [];
  if (!point.open)
    messages.push(
      pickupError(
        "PICKUP_POINT_CLOSED",
        "PickupPoint",
        `Pickup point ${id} (${point.name}) is closed or not accepting parcels`,
      ),
    );
  if (point.country !== order.recipient.country)
    messages.push(
      pickupError(
        "PICKUP_POINT_COUNTRY",
        "PickupPoint",
        `Pickup point ${id} is in ${point.country}, the recipient in ${order.recipient.country}`,
      ),
    );
  if (order.codPrice !== null && !point.cod)
    messages.push(
      pickupError(
        "PICKUP_POINT_NO_COD",
        "CodPrice",
        `Cash on delivery cannot be paid at pickup point ${id} (${point.name})`,
      ),
    );
  order.parcels.forEach((parcel, i) => {
    if (point.maxWeightKg !== null && parcel.weight > point.maxWeightKg)
      messages.push(
        pickupError(
          "PICKUP_POINT_TOO_HEAVY",
          `Parcels[${i}].Weight`,
          `Parcels[${i}].Weight ${parcel.weight} kg is over the ${point.maxWeightKg} kg that pickup point ${id} takes`,
        ),
      );
    const dims = sortedDims(parcel);
    if (dims && point.maxSizeCm && !fits(dims, point.maxSizeCm))
      messages.push(
        pickupError(
          "PICKUP_POINT_TOO_LARGE",
          `Parcels[${i}]`,
          `Parcels[${i}] (${dims.join(" × ")} cm) does not fit pickup point ${id}'s ${point.maxSizeCm.length} × ${point.maxSizeCm.width} × ${point.maxSizeCm.height} cm`,
        ),
      );
  });
  return messages;
}

/** What a suggestion must accept, and where to look from. */
export type SuggestionRequest = {
  /** The named point's place, when the directory has it in the recipient's country. */
  near: { lat: number; lon: number } | null;
  exclude: string | null;
  /** The recipient's zip and country: the origin when the point is unknown. */
  zip: string;
  country: string;
  cod: boolean;
  /** The heaviest parcel. */
  weightKg: number;
  /** Each side's largest over the parcels (largest side first), or null when a parcel's size is not known. */
  dims: [number, number, number] | null;
};

export type Suggestion = { value: string; text: string };

export const SUGGESTIONS = 3;
/**
 * Suggestions are looked for in growing boxes: 0.5 km (a city centre has hundreds of points per km², and each one in
 * the box has its distance computed and its row read), then 5 km (a town), then 50 km (the countryside).
 */
const RINGS_KM = [0.5, 5, 50] as const;

/** The zip as the feeds write it ("110 00", "11000", "00-950"): both forms, so the (courier, country, zip) index serves. */
function zipForms(zip: string): string[] {
  const compact = zip.replace(/\s+/g, "");
  const forms = new Set([zip.trim(), compact]);
  if (/^\d{5}$/.test(compact)) forms.add(`${compact.slice(0, 3)} ${compact.slice(3)}`);
  return [...forms];
}

/** The sides of a parcel envelope that fits every parcel of an order, largest first. */
export function envelopeDims(parcels: ShipmentRequest["parcels"]): [number, number, number] | null {
  const all = parcels.map(sortedDims);
  if (all.some((d) => d === null)) return null;
  return [0, 1, 2].map((i) => Math.max(...all.map((d) => d![i]!))) as [number, number, number];
}

/** From the named point, unless it is unknown or abroad: then from the recipient's zip. */
export const suggestionRequest = (order: ShipmentRequest, point: PointFacts | undefined): SuggestionRequest => ({
  near: point && point.country === order.recipient.country ? { lat: point.latitude, lon: point.longitude } : null,
  exclude: point?.id ?? null,
  zip: order.recipient.zip,
  country: order.recipient.country,
  cod: order.codPrice !== null,
  weightKg: Math.max(...order.parcels.map((p) => p.weight)),
  dims: envelopeDims(order.parcels),
});

type SuggestionRow = {
  i: number;
  id: string;
  name: string;
  street: string;
  city: string;
  zip: string;
  distance_km: number;
};

/**
 * Up to 3 open points of the courier per request, nearest first, that would accept its order: in the recipient's
 * country, taking COD when it has COD, its heaviest parcel and (lockers with a size) its parcels' envelope. From the
 * named point, or from the centre of the directory's points with the recipient's zip. All requests in ONE query: a
 * lateral per request over the (courier, latitude, longitude) btree, boxes of 0.5, 5 and 50 km, the larger only for
 * requests that found fewer than 3 in the smaller, so a batch in a city never sorts the whole city per order.
 */
export async function suggestPickupPoints(
  db: Executor,
  courier: string,
  requests: readonly SuggestionRequest[],
): Promise<Suggestion[][]> {
  if (requests.length === 0) return [];
  const input = requests.map((r, i) => ({
    i,
    lat: r.near?.lat ?? null,
    lon: r.near?.lon ?? null,
    exclude: r.exclude ?? "",
    zips: zipForms(r.zip),
    country: r.country,
    cod: r.cod,
    weight: r.weightKg,
    d1: r.dims?.[0] ?? null,
    d2: r.dims?.[1] ?? null,
    d3: r.dims?.[2] ?? null,
  }));
  // The boxes' half-sides in degrees of latitude; a longitude degree shrinks with cos(latitude), done in SQL per origin.
  const candidates = (radiusKm: number) => {
    const radiusLat = radiusKm / KM_PER_DEGREE_LAT;
    return sql.raw(`
    select p.id, p.name, p.street, p.city, p.zip,
      2 * 6371 * asin(sqrt(power(sin(radians(p.latitude - o.lat) / 2), 2)
        + cos(radians(o.lat)) * cos(radians(p.latitude)) * power(sin(radians(p.longitude - o.lon) / 2), 2))) as distance_km
    from pickup_points p
    where p.courier = o.courier and p.open and p.country = o.country and p.id <> o.exclude
      and (not o.cod or p.cod)
      and (p.max_weight_kg is null or p.max_weight_kg >= o.weight)
      and (o.d1 is null or p.max_size_cm is null or (
        o.d1 <= greatest((p.max_size_cm->>'length')::float8, (p.max_size_cm->>'width')::float8, (p.max_size_cm->>'height')::float8)
        and o.d3 <= least((p.max_size_cm->>'length')::float8, (p.max_size_cm->>'width')::float8, (p.max_size_cm->>'height')::float8)
        and o.d2 <= (p.max_size_cm->>'length')::float8 + (p.max_size_cm->>'width')::float8 + (p.max_size_cm->>'height')::float8
          - greatest((p.max_size_cm->>'length')::float8, (p.max_size_cm->>'width')::float8, (p.max_size_cm->>'height')::float8)
          - least((p.max_size_cm->>'length')::float8, (p.max_size_cm->>'width')::float8, (p.max_size_cm->>'height')::float8)))
      and p.latitude between o.lat - ${radiusLat} and o.lat + ${radiusLat}
      and p.longitude between o.lon - ${radiusLat} / greatest(cos(radians(o.lat)), 0.01)
                          and o.lon + ${radiusLat} / greatest(cos(radians(o.lat)), 0.01)
    order by distance_km, p.id
    limit ${SUGGESTIONS}`);
  };
  const rows = rowsOf<SuggestionRow>(
    await db.execute(sql`
      with req as (
        select r.i, r.lat, r.lon, r.exclude, r.zips, r.country, r.cod, r.weight, r.d1, r.d2, r.d3
        from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
          as r(i int, lat float8, lon float8, exclude text, zips jsonb, country text, cod boolean, weight float8,
               d1 float8, d2 float8, d3 float8)
      ),
      origin as (
        select req.i, ${courier}::text as courier, req.exclude, req.country, req.cod, req.weight, req.d1, req.d2, req.d3,
          coalesce(req.lat, z.lat) as lat, coalesce(req.lon, z.lon) as lon
        from req
        left join lateral (
          select avg(latitude) as lat, avg(longitude) as lon from pickup_points
          where courier = ${courier} and country = req.country
            and zip in (select jsonb_array_elements_text(req.zips))
        ) z on req.lat is null
      ),
      ring1 as (
        select o.i, c.* from origin o cross join lateral (${candidates(RINGS_KM[0])}) c where o.lat is not null
      ),
      -- An origin is done with a ring when it found 3 points within the ring's radius (not only in its box's corners).
      short1 as (
        select o.* from origin o
        left join (select i, count(*) as n from ring1 where distance_km <= ${RINGS_KM[0]} group by i) f on f.i = o.i
        where o.lat is not null and coalesce(f.n, 0) < ${SUGGESTIONS}
      ),
      ring2 as (
        select o.i, c.* from short1 o cross join lateral (${candidates(RINGS_KM[1])}) c
      ),
      short2 as (
        select o.* from short1 o
        left join (select i, count(*) as n from ring2 where distance_km <= ${RINGS_KM[1]} group by i) f on f.i = o.i
        where coalesce(f.n, 0) < ${SUGGESTIONS}
      ),
      ring3 as (
        select o.i, c.* from short2 o cross join lateral (${candidates(RINGS_KM[2])}) c
      )
      select * from ring1 where i not in (select i from short1)
      union all
      select * from ring2 where i not in (select i from short2)
      union all
      select * from ring3
      order by i, distance_km, id`),
  );
  const out: Suggestion[][] = requests.map(() => []);
  for (const row of rows) {
    const km = Number(row.distance_km);
    out[row.i]!.push({
      value: row.id,
      text: `${row.name}, ${row.street}, ${row.zip} ${row.city} (${km < 10 ? km.toFixed(1) : Math.round(km)} km)`,
    });
  }
  return out;
}
