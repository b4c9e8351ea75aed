import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Executor } from "@/db/client";
import { env } from "@/server/env";
import { CourierRejection, type CourierAdapter, type TrackingEvent } from "./types";

const EU_COUNTRIES = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
] as const;

const settingsSchema = z
  .object({
    /** How long the sandbox may take before an order counts as COURIER_TIMEOUT (default: COURIER_TIMEOUT_MS, 10 s). */
    timeoutMs: z.number().int().min(1).max(120_000).optional(),
    /** Minutes between tracking steps (CREATED → HANDED_OVER → IN_TRANSIT → OUT_FOR_DELIVERY → DELIVERED). */
    trackingStepMinutes: z
      .number()
      .positive()
      .max(7 * 24 * 60)
      .optional(),
  })
  .strict();

const DEFAULT_STEP_MINUTES = 60;

const STEPS: { status: TrackingEvent["status"]; description: string; location: string | null }[] = [
  { status: "CREATED", description: "Shipment data received from the sender", location: null },
  { status: "HANDED_OVER", description: "Parcel handed over to the courier", location: "Sandbox depot Prague" },
  { status: "IN_TRANSIT", description: "In transit to the destination depot", location: "Sandbox hub Brno" },
  { status: "OUT_FOR_DELIVERY", description: "Out for delivery", location: "Destination depot" },
  { status: "DELIVERED", description: "Delivered to the recipient", location: "Recipient address" },
];

const stepMs = (settings: Record<string, unknown>) =>
  Number(settings.trackingStepMinutes ?? DEFAULT_STEP_MINUTES) * 60_000;

/**
 * Sequence values are fetched in blocks and handed out from memory (hi/lo), so a batch of 500 orders costs
 * a handful of queries instead of one per order (bench/results.md). Still unique across instances — a
 * sequence never returns a value twice; a restart merely skips the rest of its block. Kept per database
 * handle, so numbers of one database are never used in another.
 */
const NUMBER_BLOCK = 100;
const numberPools = new WeakMap<object, { spare: string[]; refill: Promise<void> | null }>();

/**
 * Makes sure `count` numbers are spare, fetching what is missing (at least a block) in one query, and hands
 * them out when `take`: in the same turn as the check, so no concurrent caller takes them in between.
 */
async function reserveNumbers(db: Executor, count: number, take: boolean): Promise<string[]> {
  let pool = numberPools.get(db);
  if (!pool) numberPools.set(db, (pool = { spare: [], refill: null }));
  while (pool.spare.length < count) {
    const p = pool;
    p.refill ??= db
      .execute(
        sql`select nextval('sandbox_shipping_number_seq')::text as n from generate_series(1, ${Math.max(NUMBER_BLOCK, count - p.spare.length)})`,
      )
      .then((result) => void p.spare.push(...rowsOf<{ n: string }>(result).map((r) => r.n)))
      .finally(() => (p.refill = null));
    await p.refill;
  }
  return take ? pool.spare.splice(0, count) : [];
}

/**
 * The built-in courier: real shipping numbers from a database sequence, test triggers like test card
 * numbers, and tracking that moves forward every `trackingStepMinutes`.
 */
export const sandboxCourier: CourierAdapter = {
  capabilities: {
    id: "sandbox",
    name: "Sandbox courier",
    services: [
      { code: "STANDARD", name: "Standard delivery", requiresPickupPoint: false },
      { code: "EXPRESS", name: "Express delivery", requiresPickupPoint: false },
      { code: "PICKUP_POINT", name: "Delivery to a pickup point", requiresPickupPoint: true },
    ],
    countries: EU_COUNTRIES,
    maxParcelWeightKg: 31.5,
    codCurrencies: ["CZK", "EUR", "PLN", "HUF"],
  },
  settingsSchema,

  timeoutMs: (settings) => Number(settings.timeoutMs ?? env().COURIER_TIMEOUT_MS),

  async prepareShipments(parcels, { db }) {
    await reserveNumbers(db, parcels, false);
  },

  async createShipment(request, { db, signal }) {
    const note = request.note ?? "";
    if (request.referenceNumber.startsWith("COURIER-FAIL") || note.includes("[courier-fail]")) {
      throw new CourierRejection("COURIER_REJECTED", "The sandbox courier refused the shipment (test trigger).");
    }
    if (request.referenceNumber.startsWith("COURIER-TIMEOUT") || note.includes("[courier-timeout]")) {
      // Never answers: the caller's timeout decides.
      await new Promise<never>((_, reject) => {
        const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      });
    }
    const shippingNumbers = (await reserveNumbers(db, request.parcels.length, true)).map(
      (n) => `SBX${n.padStart(10, "0")}`,
    );
    return {
      shippingNumbers,
      trackingUrl: `https://sandbox-courier.example/track/${shippingNumbers[0]}`,
    };
  },

  async cancelShipment() {
    // The sandbox keeps no state of its own: a cancelled shipment simply stops being tracked.
  },

  tracking({ createdAt }, settings, now) {
    const step = stepMs(settings);
    const events: TrackingEvent[] = [];
    STEPS.forEach((s, i) => {
      const time = new Date(createdAt.getTime() + i * step);
      if (time <= now) events.push({ time, status: s.status, description: s.description, location: s.location });
    });
    return events;
  },

  nextTrackingAt({ createdAt }, settings, now) {
    const step = stepMs(settings);
    for (let i = 1; i < STEPS.length; i++) {
      const t = new Date(createdAt.getTime() + i * step);
      if (t > now) return t;
    }
    return null;
  },
};
