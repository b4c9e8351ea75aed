import type { z } from "zod";
import type { Executor } from "@/db/client";
import type { ShippingStatus } from "@/db/schema";

export type CourierService = { code: string; name: string; requiresPickupPoint: boolean };

/** What validation asks of a courier, and what `GET /couriers` shows. */
export type CourierCapabilities = {
  id: string;
  name: string;
  services: CourierService[];
  /** ISO 3166-1 alpha-2 codes the courier delivers to. */
  countries: readonly string[];
  maxParcelWeightKg: number;
  /** Currencies accepted for cash on delivery; empty when COD is not offered. */
  codCurrencies: readonly string[];
};

/** A validated order as a courier sees it. */
export type CourierShipmentRequest = {
  referenceNumber: string;
  service: string;
  note: string | null;
  pickupPoint: string | null;
  recipient: { name: string; street: string; city: string; zip: string; country: string };
  parcels: { weight: number }[];
  codPrice: number | null;
  codCurrency: string | null;
};

export type CourierShipment = { shippingNumbers: string[]; trackingUrl: string | null };

export type TrackingEvent = { time: Date; status: ShippingStatus; description: string; location: string | null };

export type CourierContext = {
  db: Executor;
  settings: Record<string, unknown>;
  signal: AbortSignal;
};

/** A courier refused the shipment; the order is reported in `failed` with this code. */
export class CourierRejection extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "CourierRejection";
  }
}

/**
 * One courier integration. Adding a courier means one file implementing this and its registration in
 * `registry.ts`; validation, create, labels and tracking are driven by what the adapter declares.
 */
export interface CourierAdapter {
  readonly capabilities: CourierCapabilities;
  /** Courier-profile `settings` this courier understands; validated on profile create. */
  readonly settingsSchema: z.ZodType<Record<string, unknown>>;
  /** Settings that are secret: sealed at rest, masked (`****` + last 4) in every view, kept when a PATCH omits them. */
  readonly secretFields?: readonly string[];
  /** Answer time allowed for this profile, in ms. */
  timeoutMs(settings: Record<string, unknown>): number;
  /**
   * Called once before a request's createShipment calls with the number of parcels they carry, so that what
   * each shipment takes from a shared source (the sandbox: shipping numbers) is fetched in one call per batch.
   */
  prepareShipments?(parcels: number, ctx: Omit<CourierContext, "signal">): Promise<void>;
  createShipment(request: CourierShipmentRequest, ctx: CourierContext): Promise<CourierShipment>;
  cancelShipment(shippingNumbers: readonly string[], ctx: CourierContext): Promise<void>;
  /** Every tracking event of the shipment up to `now`, oldest first. */
  tracking(
    shipment: { createdAt: Date; shippingNumbers: readonly string[] },
    settings: Record<string, unknown>,
    now: Date,
  ): TrackingEvent[];
  /** When the next event becomes due, or null when tracking has reached a final state. */
  nextTrackingAt(shipment: { createdAt: Date }, settings: Record<string, unknown>, now: Date): Date | null;
}
