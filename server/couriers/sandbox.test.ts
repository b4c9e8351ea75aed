import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { allocateNumbers } from "@/server/services/couriers/number-range";
import type { CallContext, ShipmentRequest } from "./adapter";
import { sandboxCourier } from "./sandbox";

const request = (i: number, parcels: number, referenceNumber = `SANDBOX-${i}`): ShipmentRequest => ({
  referenceNumber,
  externalReference: null,
  service: "STANDARD",
  note: null,
  pickupPoint: null,
  recipient: {
    name: "Jana",
    company: null,
    street: "Dlouhá 12",
    city: "Praha",
    zip: "110 00",
    country: "CZ",
    email: null,
    phone: null,
  },
  parcels: Array.from({ length: parcels }, () => ({
    weight: 1,
    length: null,
    width: null,
    height: null,
    reference: null,
  })),
  codPrice: null,
  codCurrency: null,
  variableSymbol: null,
  insurancePrice: null,
});

describe("sandbox courier", () => {
  it("hands out a distinct shipping number to every parcel of concurrent batches", async () => {
    const db = await getDb();
    const ctx: CallContext = {
      signal: new AbortController().signal,
      timeoutMs: 10_000,
      now: () => new Date(),
      allocateNumbers: (count) => allocateNumbers(db, count),
    };
    // Batches of different sizes interleave as concurrent requests do: never a shipment without numbers, nor two
    // shipments with the same one.
    const batches = await Promise.all(
      Array.from({ length: 12 }, (_, b) =>
        sandboxCourier.createShipments(
          Array.from({ length: 10 }, (_, i) => request(b * 10 + i, 1 + (i % 3))),
          {},
          ctx,
        ),
      ),
    );
    const numbers = batches.flat().flatMap((o) => (o.ok ? o.shippingNumbers : []));
    expect(numbers).toHaveLength(12 * (4 * 1 + 3 * 2 + 3 * 3));
    for (const n of numbers) expect(n).toMatch(/^SBX\d{10}$/);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("refuses and times out only the orders carrying a test trigger", async () => {
    const db = await getDb();
    const controller = new AbortController();
    const ctx: CallContext = {
      signal: controller.signal,
      timeoutMs: 1_000,
      now: () => new Date(),
      allocateNumbers: (count) => allocateNumbers(db, count),
    };
    const pending = sandboxCourier.createShipments(
      [request(1, 1, "OK-1"), request(2, 1, "COURIER-FAIL-2"), request(3, 1, "COURIER-TIMEOUT-3")],
      {},
      ctx,
    );
    controller.abort();
    const outcomes = await pending;
    expect(outcomes.map((o) => (o.ok ? "ok" : o.code))).toEqual(["ok", "COURIER_REJECTED", "COURIER_TIMEOUT"]);
  });
});
