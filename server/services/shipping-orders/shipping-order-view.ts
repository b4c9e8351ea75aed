import { asc, sql } from "drizzle-orm";
import { z } from "zod";
import { prepared, uuidArray, type Executor } from "@/db/client";
import {
  parcels,
  shippingStatus,
  trackingEvents,
  type ParcelRow,
  type ShippingOrderRow,
  type TrackingEventRow,
} from "@/db/schema";
import { formatSeconds, secondsTime } from "@/server/time";

const status = z.enum(shippingStatus.enumValues);

export const shippingOrderView = z.object({
  id: z.uuid(),
  referenceNumber: z.string(),
  externalReference: z.string().nullable(),
  referenceSource: z.string(),
  sourceIdentifier: z.string(),
  courier: z.string(),
  courierProfile: z.uuid().describe("Id of the courier profile the order was created with."),
  service: z.string(),
  status,
  shippingNumber: z.array(z.string()).describe("One shipping number per parcel, in parcel order."),
  created: secondsTime,
  codPrice: z.number().nullable(),
  codCurrency: z.string().nullable(),
  variableSymbol: z.string().nullable(),
  insurancePrice: z.number().nullable(),
  note: z.string().nullable(),
  pickupPoint: z.string().nullable().describe("As sent; null when not sent or the service does not use it."),
  recipient: z.object({
    name: z.string(),
    company: z.string().nullable(),
    street: z.string(),
    city: z.string(),
    zip: z.string(),
    country: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable().describe("E.164 (`+420777123456`), however it was sent."),
  }),
  parcels: z.array(
    z.object({
      weight: z.number(),
      length: z.number().nullable(),
      width: z.number().nullable(),
      height: z.number().nullable(),
      reference: z.string().nullable(),
      shippingNumber: z.string(),
    }),
  ),
  shipmentTracking: z.object({
    status,
    trackingUrl: z.string().nullable(),
    updated: secondsTime.nullable(),
    events: z.array(z.object({ time: secondsTime, status, description: z.string(), location: z.string().nullable() })),
  }),
  labelUrl: z.string().describe("Absolute URL of the order's label PDF."),
});

export type ShippingOrderView = z.infer<typeof shippingOrderView>;

const num = (v: string | null): number | null => (v === null ? null : Number(v));

/** A parcel as the view needs it (a stored row without its id). */
export type ParcelView = Omit<ParcelRow, "id">;
/** A tracking event as the view needs it (a stored row without its id). */
export type TrackingEventValues = Omit<TrackingEventRow, "id">;

const parcelsOf = (db: Executor) =>
  prepared(db, "view-parcels", (d) =>
    d
      .select()
      .from(parcels)
      .where(sql`${parcels.orderId} = any(${sql.placeholder("ids")}::uuid[])`)
      .orderBy(asc(parcels.orderId), asc(parcels.position))
      .prepare("view_parcels"),
  );

const eventsOf = (db: Executor) =>
  prepared(db, "view-events", (d) =>
    d
      .select()
      .from(trackingEvents)
      .where(sql`${trackingEvents.orderId} = any(${sql.placeholder("ids")}::uuid[])`)
      .orderBy(asc(trackingEvents.orderId), asc(trackingEvents.time), asc(trackingEvents.id))
      .prepare("view_events"),
  );

/** Loads parcels and tracking of orders in two queries and shapes them as the API returns them, in `rows` order. */
export async function toShippingOrderViews(
  db: Executor,
  rows: ShippingOrderRow[],
  baseUrl: string,
): Promise<ShippingOrderView[]> {
  if (rows.length === 0) return [];
  const ids = uuidArray(rows.map((r) => r.id));
  const [parcelRows, eventRows] = await Promise.all([parcelsOf(db).execute({ ids }), eventsOf(db).execute({ ids })]);
  return shapeShippingOrderViews(rows, parcelRows, eventRows, baseUrl);
}

/**
 * The API's view of orders, in `rows` order, from their parcels (ordered by order and position) and tracking
 * events (ordered by order, time and id).
 */
export function shapeShippingOrderViews(
  rows: ShippingOrderRow[],
  parcelRows: ParcelView[],
  eventRows: TrackingEventValues[],
  baseUrl: string,
): ShippingOrderView[] {
  const parcelsBy = groupBy(parcelRows, (p) => p.orderId);
  const eventsBy = groupBy(eventRows, (e) => e.orderId);
  return rows.map((row) => {
    const ps = parcelsBy.get(row.id) ?? [];
    const events = eventsBy.get(row.id) ?? [];
    return {
      id: row.id,
      referenceNumber: row.referenceNumber,
      externalReference: row.externalReference,
      referenceSource: row.referenceSource,
      sourceIdentifier: row.sourceIdentifier,
      courier: row.courier,
      courierProfile: row.courierProfileId,
      service: row.service,
      status: row.status,
      shippingNumber: ps.map((p) => p.shippingNumber),
      created: formatSeconds(row.createdAt),
      codPrice: num(row.codPrice),
      codCurrency: row.codCurrency,
      variableSymbol: row.variableSymbol,
      insurancePrice: num(row.insurancePrice),
      note: row.note,
      pickupPoint: row.pickupPoint,
      recipient: {
        name: row.recipientName,
        company: row.recipientCompany,
        street: row.recipientStreet,
        city: row.recipientCity,
        zip: row.recipientZip,
        country: row.recipientCountry,
        email: row.recipientEmail,
        phone: row.recipientPhone,
      },
      parcels: ps.map((p) => ({
        weight: Number(p.weight),
        length: num(p.length),
        width: num(p.width),
        height: num(p.height),
        reference: p.reference,
        shippingNumber: p.shippingNumber,
      })),
      shipmentTracking: {
        status: row.status,
        trackingUrl: row.trackingUrl,
        updated: row.trackingUpdatedAt ? formatSeconds(row.trackingUpdatedAt) : null,
        events: events.map((e) => ({
          time: formatSeconds(e.time),
          status: e.status,
          description: e.description,
          location: e.location,
        })),
      },
      labelUrl: `${baseUrl}/api/v2/shipping-orders/${row.id}/label`,
    };
  });
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}
