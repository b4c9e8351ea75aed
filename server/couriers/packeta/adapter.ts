import { limiterPerCredential } from "../profile-limiter";
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
import { asArray, attributeFaultsOf, callPacketa, PacketaFault, type AttributeFault } from "./client";
import {
  orderTrackingEventOf,
  PACKETA_COD_CURRENCIES,
  packetAttributes,
  platformField,
  validateForPacketa,
  homeCarrierId,
} from "./mapping";
import { packetaSettings, type PacketaSettings } from "./settings";

/** At most this many calls in flight per profile (its API password): the contract's bound. */
const IN_FLIGHT_PER_PROFILE = 8;
const limitFor = limiterPerCredential(IN_FLIGHT_PER_PROFILE);
const limiterOf = (settings: PacketaSettings) => limitFor(settings.apiPassword);

/**
 * Packeta's refusal of packet attributes: its own words (`attribute: text`), at the first field the platform knows
 * for the packet's service (a HOME packet's `addressId` is the carrier id the profile names for the country).
 */
function rejection(attributeFaults: readonly AttributeFault[], text: string, service?: string): CourierError {
  const detail = attributeFaults.map((f) => `${f.name}: ${f.fault}`).join("; ");
  const field = attributeFaults.map((f) => platformField(f.name, service)).find((f) => f !== null) ?? null;
  return new CourierError("COURIER_REJECTED", `Packeta: ${detail || text}`, field);
}

/** A Packeta fault as the platform's courier error, with Packeta's own words (the password is in no message). */
function courierErrorOf(error: unknown, service?: string): CourierError {
  if (error instanceof CourierError) return error;
  if (error instanceof PacketaFault) {
    // Packeta's `string` names no secret ("Incorrect API password."): the contract wants the courier's words.
    if (error.fault === "IncorrectApiPasswordFault")
      return new CourierError("COURIER_AUTH_FAILED", `Packeta refused the API password: ${error.message}`);
    if (error.fault === "CancelNotAllowedFault") return new CourierError("COURIER_CANNOT_CANCEL", error.message);
    return rejection(error.attributeFaults, error.message, service);
  }
  return new CourierError("COURIER_UNAVAILABLE", "Packeta could not be reached.");
}

/** One call through the profile's limiter, its faults as they came (PacketaFault) for callers that judge them. */
const rawCall = (settings: PacketaSettings, ctx: CallContext, operation: string, parts: Record<string, unknown>) =>
  limiterOf(settings)(() => callPacketa(operation, settings.apiPassword, parts, ctx.signal));

const call = (settings: PacketaSettings, ctx: CallContext, operation: string, parts: Record<string, unknown>) =>
  rawCall(settings, ctx, operation, parts).catch((error: unknown) => {
    throw courierErrorOf(error);
  });

/**
 * Packets per `createPackets` call. Packeta's WSDL states no maximum; 100 keeps a request body around 40 kB and its
 * answer well inside the courier timeout, and equals `limits.createBatchSize`, so a full batch of one-parcel orders is
 * one call. Larger batches (multi-parcel orders) take several calls, run in parallel through the per-password limiter.
 */
export const PACKETS_PER_CALL = 100;

/** `PacketIdDetail`: a packet Packeta registered. */
type CreatedPacket = { id: string; barcode: string };
/** `CreatePacketResult` as parsed (values are strings; a nil `createdPacket` parses as ""). */
type CreatePacketResult = { createdPacket?: unknown; fault?: unknown; packetAttributesFault?: unknown };
/** What became of one packet of a create: registered, or the error that kept it from being registered. */
type PacketOutcome = { created: CreatedPacket } | { error: CourierError };

const createdPacketOf = (result: CreatePacketResult): CreatedPacket | null => {
  const p = result.createdPacket as { id?: unknown; barcode?: unknown } | undefined;
  return typeof p === "object" && p && p.id ? { id: String(p.id), barcode: String(p.barcode ?? "") } : null;
};

/**
 * The orders' packets in call-sized slices, as `[start, end)` ranges over the flat list of packets (every parcel of
 * every order, in order). An order's packets stay in one call when they fit, so a call that fails as a whole fails
 * whole orders, and only an order of more than `PACKETS_PER_CALL` parcels is split over calls.
 */
function packetRanges(requests: readonly ShipmentRequest[]): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  let end = 0;
  for (const request of requests) {
    if (end > start && end - start + request.parcels.length > PACKETS_PER_CALL) {
      ranges.push([start, end]);
      start = end;
    }
    for (let i = 0; i < request.parcels.length; i++) {
      end += 1;
      if (end - start === PACKETS_PER_CALL) {
        ranges.push([start, end]);
        start = end;
      }
    }
  }
  if (end > start) ranges.push([start, end]);
  return ranges;
}

/**
 * One `createPackets` call with `transaction` false: Packeta registers the valid packets and answers one
 * `CreatePacketResult` per packet, in request order (`createdPacket`, or `fault` + `packetAttributesFault`). A fault
 * of the whole call (wrong password, HTTP 5xx, no answer, a call-level `PacketAttributesFault`) is every packet's
 * outcome. `orphans`: packets Packeta registered that cannot be matched to a request (an answer with the wrong number
 * of results); the caller cancels them.
 */
async function createPackets(
  attributes: readonly Record<string, unknown>[],
  services: readonly string[],
  settings: PacketaSettings,
  ctx: CallContext,
): Promise<{ outcomes: PacketOutcome[]; orphans: string[] }> {
  if (attributes.length === 1) return createOnePacket(attributes[0]!, services[0], settings, ctx);
  let answer: unknown;
  try {
    answer = await rawCall(settings, ctx, "createPackets", { packets: { attributes }, transaction: false });
  } catch (error) {
    return { outcomes: attributes.map((_, i) => ({ error: courierErrorOf(error, services[i]) })), orphans: [] };
  }
  const results = asArray(
    typeof answer === "object" && answer
      ? (answer as { packet?: CreatePacketResult | CreatePacketResult[] }).packet
      : undefined,
  );
  if (results.length !== attributes.length) {
    const e = new CourierError(
      "COURIER_UNAVAILABLE",
      `Packeta answered ${results.length} results for ${attributes.length} packets.`,
    );
    const orphans = results.flatMap((r) => createdPacketOf(r)?.id ?? []);
    return { outcomes: attributes.map(() => ({ error: e })), orphans };
  }
  const outcomes = results.map((result, i): PacketOutcome => {
    const created = createdPacketOf(result);
    if (created) return { created };
    const text = typeof result.fault === "string" && result.fault ? result.fault : "Packeta refused the packet.";
    return { error: rejection(attributeFaultsOf(result.packetAttributesFault), text, services[i]) };
  });
  return { outcomes, orphans: [] };
}

/**
 * A call of one packet is `createPacket`, the contract's first name for a create: it answers the packet (`id`,
 * `barcode`) or a `PacketAttributesFault` naming the attributes.
 */
async function createOnePacket(
  attributes: Record<string, unknown>,
  service: string | undefined,
  settings: PacketaSettings,
  ctx: CallContext,
): Promise<{ outcomes: PacketOutcome[]; orphans: string[] }> {
  try {
    const answer = await rawCall(settings, ctx, "createPacket", { packetAttributes: attributes });
    const created = createdPacketOf({ createdPacket: answer });
    if (!created)
      return {
        outcomes: [{ error: new CourierError("COURIER_UNAVAILABLE", "Packeta answered no packet id.") }],
        orphans: [],
      };
    return { outcomes: [{ created }], orphans: [] };
  } catch (error) {
    return { outcomes: [{ error: courierErrorOf(error, service) }], orphans: [] };
  }
}

const packetIdsOf = (shipment: ShipmentRef): string[] => {
  const ids = shipment.courierData.packetIds;
  return Array.isArray(ids) ? ids.map(String) : [];
};

/** Packeta's label format names (`packetLabelPdf`'s `format`). */
const PDF_FORMATS: Record<Exclude<LabelFormat, "zpl">, string> = { "pdf-a6": "A6 on A6", "pdf-a4": "A6 on A4" };

export const packetaCourier: CourierAdapter<PacketaSettings> = {
  remote: true,
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
  limits: { maxInFlightPerProfile: IN_FLIGHT_PER_PROFILE, createBatchSize: PACKETS_PER_CALL, trackingBatchSize: 1 },
  settings: { schema: packetaSettings, secretFields: ["apiPassword"] },
  timeoutMs: (settings) => settings.timeoutMs ?? env().COURIER_TIMEOUT_MS,
  validate: validateForPacketa,
  directoryKeys: (order, settings) => {
    const carrier = homeCarrierId(order, settings);
    return carrier === undefined ? {} : { carrier };
  },

  /**
   * One packet per parcel, always through `createPackets` (a one-parcel order too: one code path, one fixture): the
   * parcels of all requests go in calls of at most `PACKETS_PER_CALL` packets, run in parallel through the
   * per-password limiter. An order with any packet refused (or whose call failed) fails, and its packets that were
   * registered are cancelled; the other orders of the call keep their packets.
   */
  async createShipments(requests, settings, ctx): Promise<CreateOutcome[]> {
    const attributes = requests.flatMap((request) =>
      request.parcels.map((_, parcel) => packetAttributes(request, parcel, settings)),
    );
    const services = requests.flatMap((request) => request.parcels.map(() => request.service));
    const outcomes: PacketOutcome[] = [];
    const orphans: string[] = [];
    await Promise.all(
      packetRanges(requests).map(async ([start, end]) => {
        const answer = await createPackets(attributes.slice(start, end), services.slice(start, end), settings, ctx);
        answer.outcomes.forEach((outcome, i) => (outcomes[start + i] = outcome));
        orphans.push(...answer.orphans);
      }),
    );

    const toCancel = [...orphans];
    let first = 0;
    const results = requests.map((request): CreateOutcome => {
      const packets = outcomes.slice(first, (first += request.parcels.length));
      const created = packets.flatMap((p) => ("created" in p ? [p.created] : []));
      const failed = packets.find((p): p is { error: CourierError } => "error" in p);
      if (!failed)
        return {
          ok: true,
          referenceNumber: request.referenceNumber,
          shippingNumbers: created.map((p) => `Z${p.barcode.replace(/^Z/, "")}`),
          trackingUrl: `https://tracking.packeta.com/?id=${created[0]?.barcode ?? ""}`,
          courierData: { packetIds: created.map((p) => p.id) },
        };
      // A half-registered order must not leave packets behind: the ones Packeta made are cancelled.
      toCancel.push(...created.map((p) => p.id));
      const e = failed.error;
      return {
        ok: false,
        code: e.code === "COURIER_CANNOT_CANCEL" ? "COURIER_REJECTED" : e.code,
        message: e.message,
        // For HOME, `addressId` is the carrier the profile names for the recipient's country, not a pickup point.
        field: request.service === "HOME" && e.field === "PickupPoint" ? "Recipient.Country" : e.field,
        // A call that may have reached Packeta unanswered: its packets may exist (no id to cancel them by).
        ...(packets.some((p) => "error" in p && p.error.outcomeUnknown) ? { outcomeUnknown: true as const } : {}),
      };
    });
    // Best effort, in parallel through the limiter: a cancel that fails is not retried, the order fails either way.
    await Promise.all(
      toCancel.map((packetId) => call(settings, ctx, "cancelPacket", { packetId }).catch(() => undefined)),
    );
    return results;
  },

  /**
   * `cancelPacket` per packet. A `CancelNotAllowedFault` for a packet Packeta already cancelled (status 11) is done,
   * so a retried cancel succeeds; otherwise COURIER_CANNOT_CANCEL.
   */
  async cancelShipment(shipment, settings, ctx) {
    for (const packetId of packetIdsOf(shipment))
      try {
        await rawCall(settings, ctx, "cancelPacket", { packetId });
      } catch (error) {
        if (error instanceof PacketaFault && error.fault === "CancelNotAllowedFault") {
          const status = (await call(settings, ctx, "packetStatus", { packetId }).catch(() => null)) as {
            statusCode?: unknown;
          } | null;
          if (String(status?.statusCode ?? "") === "11") continue;
        }
        throw courierErrorOf(error);
      }
  },

  /**
   * The labels, checked to be what was asked before the platform keeps them: ZPL (each packet's answer holds a `^XA`
   * label; it may open with `~` download commands) or a PDF (`%PDF-`); anything else (an error page, an empty answer)
   * is COURIER_UNAVAILABLE and asked again next time.
   */
  async fetchLabel(shipment, format, settings, ctx): Promise<LabelFile> {
    const ids = packetIdsOf(shipment);
    if (format === "zpl") {
      const parts = await Promise.all(
        ids.map((packetId) => call(settings, ctx, "packetLabelZpl", { packetId, dpi: 203 }) as Promise<string>),
      );
      if (parts.length === 0 || !parts.every((part) => String(part).includes("^XA")))
        throw new CourierError("COURIER_UNAVAILABLE", "Packeta answered a label that is not ZPL.");
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
    const body = Buffer.from(String(base64), "base64");
    if (!body.subarray(0, 5).equals(Buffer.from("%PDF-")))
      throw new CourierError("COURIER_UNAVAILABLE", "Packeta answered a label that is not a PDF.");
    return { body, contentType: "application/pdf" };
  },

  /**
   * `packetStatus` of every packet of the shipment (in parallel through the limiter), as one event of the order:
   * DELIVERED only when every packet is, RETURNED when any is (`orderTrackingEventOf`). Packeta keeps no history in
   * this call.
   */
  async track(shipments, settings, ctx): Promise<TrackingResult[]> {
    return Promise.all(
      shipments.map(async (shipment) => {
        const records = await Promise.all(
          packetIdsOf(shipment).map(
            async (packetId) => (await call(settings, ctx, "packetStatus", { packetId })) as Record<string, string>,
          ),
        );
        const event = orderTrackingEventOf(records);
        return { events: event ? [event] : [], nextCheckAt: null };
      }),
    );
  },

  /** The cheapest authenticated call: the sender's return routing (also proves `sender` exists). */
  async checkCredentials(settings, ctx): Promise<CheckResult> {
    // The sender's return routing also proves the `sender` label exists. An API that does not know the call (a
    // fault other than the password's or the sender's, or an HTTP refusal) is asked `packetStatus` of a packet
    // that does not exist: Packeta checks the password first, so `PacketIdFault` means the password works.
    try {
      await rawCall(settings, ctx, "senderGetReturnRouting", { sender: settings.sender });
      return { ok: true };
    } catch (error) {
      const e = courierErrorOf(error);
      if (e.code === "COURIER_AUTH_FAILED" || e.code === "COURIER_TIMEOUT")
        return { ok: false, code: e.code, message: e.message };
      if (error instanceof PacketaFault && /sender/i.test(error.fault))
        return {
          ok: false,
          code: "COURIER_REJECTED",
          message: `Packeta does not know the sender "${settings.sender}".`,
        };
    }
    try {
      await rawCall(settings, ctx, "packetStatus", { packetId: "1" });
      return { ok: true };
    } catch (error) {
      if (error instanceof PacketaFault && error.fault !== "IncorrectApiPasswordFault") return { ok: true };
      const e = courierErrorOf(error);
      return { ok: false, code: e.code, message: e.message };
    }
  },

  /**
   * Packeta's API (packeta.wsdl) has no lookup of packets by the e-shop's number: `packetInfo`, `packetStatus` and
   * `packetTracking` take a packet id, which an unanswered `createPacket(s)` never gave. Recovery finds nothing; an
   * unknown outcome stays listed among the refused attempts as "outcome unknown" for the partner to check.
   */
  canLookUpByReference: false,
  async findShipments(): Promise<Shipment[]> {
    return [];
  },
};
