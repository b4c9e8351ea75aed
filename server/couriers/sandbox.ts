import { z } from "zod";
import { env } from "@/server/env";
import { EU_COUNTRIES } from "./countries";
import type { CourierAdapter, CreateOutcome, ShipmentRequest, TrackingEvent, TrackingResult } from "./adapter";

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

type SandboxSettings = z.infer<typeof settingsSchema>;

const stepMs = (settings: SandboxSettings) => (settings.trackingStepMinutes ?? DEFAULT_STEP_MINUTES) * 60_000;

/** Every step of the timed tracking up to `now`, for a shipment registered at `createdAt`. */
function stepsUntil(createdAt: Date, settings: SandboxSettings, now: Date): TrackingResult {
  const step = stepMs(settings);
  const events: TrackingEvent[] = [];
  let nextCheckAt: Date | null = null;
  STEPS.forEach((s, i) => {
    const time = new Date(createdAt.getTime() + i * step);
    if (time <= now) events.push({ time, status: s.status, description: s.description, location: s.location });
    else nextCheckAt ??= time;
  });
  return { events, nextCheckAt };
}

/** Waits for the call's timeout: a COURIER-TIMEOUT order never answers. */
const never = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });

const trigger = (request: ShipmentRequest, name: "fail" | "timeout") =>
  request.referenceNumber.startsWith(name === "fail" ? "COURIER-FAIL" : "COURIER-TIMEOUT") ||
  (request.note ?? "").includes(name === "fail" ? "[courier-fail]" : "[courier-timeout]");

/**
 * The built-in courier: real shipping numbers from the platform's number range (a database sequence), test
 * triggers like test card numbers, and tracking that moves forward every `trackingStepMinutes`. It runs in the
 * process (`remote: false`): nothing to recover, its labels are rendered by the platform, and its tracking is
 * computed from the clock.
 */
export const sandboxCourier: CourierAdapter<SandboxSettings> = {
  remote: false,
  capabilities: {
    id: "sandbox",
    name: "Sandbox courier",
    services: [
      { code: "STANDARD", name: "Standard delivery", requiresPickupPoint: false },
      { code: "EXPRESS", name: "Express delivery", requiresPickupPoint: false },
      { code: "PICKUP_POINT", name: "Delivery to a pickup point", requiresPickupPoint: true },
    ],
    defaultService: "STANDARD",
    countries: EU_COUNTRIES,
    maxParcelWeightKg: 31.5,
    codCurrencies: ["CZK", "EUR", "PLN", "HUF"],
  },
  limits: { maxInFlightPerProfile: 8, createBatchSize: 500, trackingBatchSize: 500 },
  settings: { schema: settingsSchema, secretFields: [] },

  timeoutMs: (settings) => settings.timeoutMs ?? env().COURIER_TIMEOUT_MS,

  validate: () => [],

  /** Each request on its own: a refusal or a timeout trigger affects only its order. */
  async createShipments(requests, _settings, ctx): Promise<CreateOutcome[]> {
    const answering = requests.filter((r) => !trigger(r, "fail") && !trigger(r, "timeout"));
    const numbers = await ctx.allocateNumbers(answering.reduce((n, r) => n + r.parcels.length, 0));
    let next = 0;
    return Promise.all(
      requests.map(async (request): Promise<CreateOutcome> => {
        if (trigger(request, "fail"))
          return {
            ok: false,
            code: "COURIER_REJECTED",
            message: "The sandbox courier refused the shipment (test trigger).",
            field: null,
          };
        if (trigger(request, "timeout")) {
          await never(ctx.signal).catch(() => undefined);
          return {
            ok: false,
            code: "COURIER_TIMEOUT",
            message: `Sandbox courier did not answer within ${ctx.timeoutMs / 1000} s.`,
            field: null,
          };
        }
        const shippingNumbers = numbers
          .slice(next, (next += request.parcels.length))
          .map((n) => `SBX${n.padStart(10, "0")}`);
        return {
          ok: true,
          referenceNumber: request.referenceNumber,
          shippingNumbers,
          trackingUrl: `https://sandbox-courier.example/track/${shippingNumbers[0]}`,
          courierData: {},
        };
      }),
    );
  },

  async cancelShipment() {
    // The sandbox keeps no state of its own: a cancelled shipment simply stops being tracked.
  },

  initialTracking: (now, settings) => stepsUntil(now, settings, now),

  async track(shipments, settings, ctx) {
    return shipments.map((s) => stepsUntil(s.createdAt, settings, ctx.now()));
  },

  async checkCredentials() {
    return { ok: true };
  },

  /** The sandbox registers nothing outside the platform: an interrupted attempt left nothing behind. */
  canLookUpByReference: false,
  async findShipments() {
    return [];
  },
};
