import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sandboxCourier } from "./sandbox";

const request = (i: number, parcels: number) => ({
  referenceNumber: `SANDBOX-${i}`,
  service: "STANDARD",
  note: null,
  pickupPoint: null,
  recipient: { name: "Jana", street: "Dlouhá 12", city: "Praha", zip: "110 00", country: "CZ" },
  parcels: Array.from({ length: parcels }, () => ({ weight: 1 })),
  codPrice: null,
  codCurrency: null,
});

describe("sandbox courier", () => {
  it("hands out a distinct shipping number to every parcel of concurrent shipments, with batches reserving ahead", async () => {
    const db = await getDb();
    const ctx = { db, settings: {}, signal: new AbortController().signal };
    // Reservations and shipments interleave as concurrent requests do: a reservation must never leave a
    // shipment without numbers, nor two shipments with the same one.
    const shipments = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        if (i % 10 === 0) await sandboxCourier.prepareShipments!(150, ctx);
        return sandboxCourier.createShipment(request(i, 1 + (i % 3)), ctx);
      }),
    );
    const numbers = shipments.flatMap((s) => s.shippingNumbers);
    expect(numbers).toHaveLength(120 * 2);
    for (const n of numbers) expect(n).toMatch(/^SBX\d{10}$/);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
