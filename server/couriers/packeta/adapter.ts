import pLimit, { type LimitFunction } from "p-limit";
import { env } from "@/server/env";
import type { LabelFormat } from "@/server/labels/label-format";
import {
  CourierError,
  type CallContext,
  type CheckResult,
  type CourierAdapter,
  type CreateOutcome,
  type LabelFile,
  type Shipment,
  type ShipmentRef,
  type ShipmentRequest,
  type TrackingResult,
} from "../adapter";
import { callPacketa, PacketaFault } from "./client";
import {
  PACKETA_COD_CURRENCIES,
  packetAttributes,
  platformField,
  trackingEventOf,
  validateForPacketa,
} from "./mapping";
import { packetaSettings, type PacketaSettings } from "./settings";

/** At most this many calls in flight per profile (its API password): the contract's bound. */
const IN_FLIGHT_PER_PROFILE = 8;
const limiters = new Map<string, LimitFunction>();
const limiterOf = (settings: PacketaSettings): LimitFunction => {
  let limit = limiters.get(settings.apiPassword);
  if (!limit) limiters.set(settings.apiPassword, (limit = pLimit(IN_FLIGHT_PER_PROFILE)));
  return limit;
};

/** A Packeta fault as the platform's courier error (the password is in no message). */
function courierErrorOf(error: unknown): CourierError {
  if (error instanceof CourierError) return error;
  if (error instanceof PacketaFault) {
    if (error.fault === "IncorrectApiPasswordFault")
      return new CourierError("COURIER_AUTH_FAILED", "Packeta refused the API password.");
    if (error.fault === "CancelNotAllowedFault") return new CourierError("COURIER_CANNOT_CANCEL", error.message);
    const first = error.attributeFaults[0];
    const detail = error.attributeFaults.map((f) => `${f.name}: ${f.fault}`).join("; ");
    return new CourierError(
      "COURIER_REJECTED",
      detail ? `Packeta: ${detail}` : `Packeta: ${error.message}`,
      first ? platformField(first.name) : null,
    );
  }
  return new CourierError("COURIER_UNAVAILABLE", "Packeta could not be reached.");
}

const call = (settings: PacketaSettings, ctx: CallContext, operation: string, parts: Record<string, unknown>) =>
  limiterOf(settings)(() => callPacketa(operation, settings.apiPassword, parts, ctx.signal)).catch((error: unknown) => {
    throw courierErrorOf(error);
  });

type CreatedPacket = { id?: string; barcode?: string; barcodeText?: string };

const packetIdsOf = (shipment: ShipmentRef): string[] => {
  const ids = shipment.courierData.packetIds;
  return Array.isArray(ids) ? ids.map(String) : [];
};

/** Packeta's label format names (`packetLabelPdf`'s `format`). */
const PDF_FORMATS: Record<Exclude<LabelFormat, "zpl">, string> = { "pdf-a6": "A6 on A6", "pdf-a4": "A6 on A4" };

export const packetaCourier: CourierAdapter<PacketaSettings> = {
  capabilities: {
    id: "packeta",
    name: "Packeta",
    services: [
      { code: "PICKUP_POINT", name: "Pickup point", requiresPickupPoint: true },
      { code: "HOME", name: "Home delivery", requiresPickupPoint: false },
    ],
    defaultService: "PICKUP_POINT",
    countries: [
      "CZ",
      "SK",
      "HU",
      "PL",
      "RO",
      "DE",
      "AT",
      "SI",
      "HR",
      "BG",
      "GR",
      "IT",
      "ES",
      "FR",
      "NL",
      "BE",
      "LT",
      "LV",
      "EE",
    ],
    maxParcelWeightKg: 15,
    codCurrencies: PACKETA_COD_CURRENCIES,
  },
  limits: { maxInFlightPerProfile: IN_FLIGHT_PER_PROFILE, createBatchSize: 100, trackingBatchSize: 1 },
  settings: { schema: packetaSettings, secretFields: ["apiPassword"] },
  timeoutMs: (settings) => settings.timeoutMs ?? env().COURIER_TIMEOUT_MS,
  validate: validateForPacketa,

  /** One packet per parcel (`createPacket`); an order with a packet refused has its other packets cancelled. */
  async createShipments(requests, settings, ctx): Promise<CreateOutcome[]> {
    return Promise.all(
      requests.map(async (request): Promise<CreateOutcome> => {
        const created: CreatedPacket[] = [];
        try {
          for (let i = 0; i < request.parcels.length; i++) {
            const result = (await call(settings, ctx, "createPacket", {
              packetAttributes: packetAttributes(request, i, settings),
            })) as CreatedPacket;
            created.push(result);
          }
          return {
            ok: true,
            referenceNumber: request.referenceNumber,
            shippingNumbers: created.map((p) => `Z${String(p.barcode ?? "").replace(/^Z/, "")}`),
            trackingUrl: `https://tracking.packeta.com/?id=${created[0]?.barcode ?? ""}`,
            courierData: { packetIds: created.map((p) => String(p.id)) },
          };
        } catch (error) {
          // A half-registered order must not leave packets behind: the ones already made are cancelled.
          await Promise.all(
            created.map((p) => call(settings, ctx, "cancelPacket", { packetId: p.id }).catch(() => undefined)),
          );
          const e = courierErrorOf(error);
          const code = e.code === "COURIER_CANNOT_CANCEL" ? "COURIER_REJECTED" : e.code;
          return { ok: false, code, message: e.message, field: e.field };
        }
      }),
    );
  },

  async cancelShipment(shipment, settings, ctx) {
    for (const packetId of packetIdsOf(shipment)) await call(settings, ctx, "cancelPacket", { packetId });
  },

  async fetchLabel(shipment, format, settings, ctx): Promise<LabelFile> {
    const ids = packetIdsOf(shipment);
    if (format === "zpl") {
      const parts = await Promise.all(
        ids.map((packetId) => call(settings, ctx, "packetLabelZpl", { packetId, dpi: 203 }) as Promise<string>),
      );
      return { body: new TextEncoder().encode(parts.map(String).join("\n")), contentType: "text/plain; charset=utf-8" };
    }
    const base64 =
      ids.length === 1
        ? await call(settings, ctx, "packetLabelPdf", { packetId: ids[0], format: PDF_FORMATS[format], offset: 0 })
        : await call(settings, ctx, "packetsLabelsPdf", {
            packetIds: { id: ids },
            format: PDF_FORMATS[format],
            offset: 0,
          });
    return { body: Buffer.from(String(base64), "base64"), contentType: "application/pdf" };
  },

  /** `packetStatus` of the shipment's first packet (the order's state); Packeta keeps no history in this call. */
  async track(shipments, settings, ctx): Promise<TrackingResult[]> {
    return Promise.all(
      shipments.map(async (shipment) => {
        const [first] = packetIdsOf(shipment);
        if (!first) return { events: [], nextCheckAt: null };
        const record = (await call(settings, ctx, "packetStatus", { packetId: first })) as Record<string, string>;
        const event = trackingEventOf(record);
        return { events: event ? [event] : [], nextCheckAt: null };
      }),
    );
  },

  /** The cheapest authenticated call: the sender's return routing (also proves `sender` exists). */
  async checkCredentials(settings, ctx): Promise<CheckResult> {
    try {
      await call(settings, ctx, "senderGetReturnRouting", { sender: settings.sender });
      return { ok: true };
    } catch (error) {
      const e = courierErrorOf(error);
      return { ok: false, code: e.code, message: e.message };
    }
  },

  /** Packeta's API has no lookup of packets by the e-shop's number: recovery cancels nothing it cannot find. */
  async findShipment(_request: ShipmentRequest): Promise<Shipment | null> {
    return null;
  },
};
