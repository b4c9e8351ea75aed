import { asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { courierProfiles, parcels, type ShippingOrderRow } from "@/db/schema";
import type { CourierAdapter, ShipmentRef } from "@/server/couriers/adapter";
import { courierSettings } from "./call-courier";

type StoredOrder = Pick<ShippingOrderRow, "id" | "referenceNumber" | "courierData" | "createdAt">;

/**
 * Stored orders' shipments as their courier's adapter takes them back (cancel, labels, tracking): the shipping
 * numbers in parcel order and the data the adapter kept, in one query for any number of orders. Keyed by order id.
 */
export async function storedShipments(db: Executor, orders: readonly StoredOrder[]): Promise<Map<string, ShipmentRef>> {
  const numbers =
    orders.length === 0
      ? []
      : await db
          .select({ orderId: parcels.orderId, shippingNumber: parcels.shippingNumber })
          .from(parcels)
          .where(
            inArray(
              parcels.orderId,
              orders.map((o) => o.id),
            ),
          )
          .orderBy(asc(parcels.orderId), asc(parcels.position));
  const numbersOf = new Map<string, string[]>();
  for (const n of numbers) numbersOf.set(n.orderId, [...(numbersOf.get(n.orderId) ?? []), n.shippingNumber]);
  return new Map(
    orders.map((o) => [
      o.id,
      {
        referenceNumber: o.referenceNumber,
        shippingNumbers: numbersOf.get(o.id) ?? [],
        courierData: o.courierData,
        createdAt: o.createdAt,
      },
    ]),
  );
}

/** One stored order's shipment (see storedShipments). */
export const storedShipment = async (db: Executor, order: StoredOrder): Promise<ShipmentRef> =>
  (await storedShipments(db, [order])).get(order.id)!;

/** A profile's settings as its courier's adapter takes them (secrets opened), or null when there is no such profile. */
export async function profileSettings(
  db: Executor,
  courier: CourierAdapter,
  profileId: string,
): Promise<Record<string, unknown> | null> {
  const [profile] = await db
    .select({ id: courierProfiles.id, accountId: courierProfiles.accountId, settings: courierProfiles.settings })
    .from(courierProfiles)
    .where(eq(courierProfiles.id, profileId));
  return profile ? courierSettings(courier, profile) : null;
}
