import type { z } from "zod";
import type { ShippingStatus } from "@/lib/shipping-status";
import type { LabelFormat } from "@/server/labels/label-format";
import type { ValidationMessage } from "@/lib/validation-message";

/**
 * The courier adapter interface made for real couriers (issue 17). Adapters are pure connectors: they get typed,
 * decrypted settings and an `AbortSignal`, never a database handle, and every call may be batched. The platform
 * (server/services) owns attempts, storage, recovery, label caching and tracking schedules.
 *
 * Error contract: an adapter method throws `CourierError` with one of `CourierErrorCode`; anything else it throws
 * is treated as COURIER_UNAVAILABLE. An aborted signal (the courier timeout) must make the call settle promptly
 * with `CourierError("COURIER_TIMEOUT", …)` (or the abort reason).
 */

export type CourierErrorCode =
  "COURIER_REJECTED" | "COURIER_AUTH_FAILED" | "COURIER_UNAVAILABLE" | "COURIER_TIMEOUT" | "COURIER_CANNOT_CANCEL";

export class CourierError extends Error {
  /**
   * The request may have reached the courier and its answer never came (a timeout after sending, a connection cut
   * mid-call): for a create, the courier may have registered the shipment.
   */
  readonly outcomeUnknown: boolean;
  constructor(
    readonly code: CourierErrorCode,
    message: string,
    /** The request field the courier named, in the platform's (PascalCase) terms when it can be mapped, e.g. `Recipient.Zip`. */
    readonly field: string | null = null,
    options: { outcomeUnknown?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CourierError";
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }

  /** The same error, marked as one whose request may have reached the courier. */
  unknownOutcome(): CourierError {
    return this.outcomeUnknown
      ? this
      : new CourierError(this.code, this.message, this.field, { outcomeUnknown: true, cause: this.cause });
  }
}

/**
 * Whether a failed HTTP exchange may have delivered its request: anything but a failure to connect at all (refused,
 * no such host, no route, the connect timing out). An abort (the courier timeout) counts as delivered: the request
 * may have been sent before it.
 */
export function requestMayHaveArrived(error: unknown): boolean {
  const NOT_SENT = new Set([
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "UND_ERR_CONNECT_TIMEOUT",
    "ERR_INVALID_URL",
  ]);
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT.has(code)) return false;
    const errors = (e as { errors?: unknown }).errors; // AggregateError of a happy-eyeballs connect
    if (Array.isArray(errors) && errors.length > 0 && errors.every((x) => !requestMayHaveArrived(x))) return false;
  }
  return true;
}

/**
 * What a courier's directory says about what an order names, looked up once per batch by the platform (one query)
 * and handed to `validate`: adapters never get a database handle.
 */
export type DirectoryFacts = {
  /**
   * A home-delivery carrier's requirements (Packeta's carrier feed), by the id `directoryKeys` named; undefined when
   * the id is not in the feed. `carriersSynced` false: the feed never arrived, nothing can be checked.
   */
  carrier(id: string): CarrierRequirements | undefined;
  carriersSynced: boolean;
};

/** A home-delivery carrier's requirements on an order (Packeta's `carrier.json`). */
export type CarrierRequirements = {
  id: string;
  name: string;
  country: string;
  available: boolean;
  apiAllowed: boolean;
  separateHouseNumber: boolean;
  requiresEmail: boolean;
  requiresPhone: boolean;
  requiresSize: boolean;
  disallowsCod: boolean;
  maxWeightKg: number | null;
};

export type CourierServiceInfo = { code: string; name: string; requiresPickupPoint: boolean };

/** What validation asks of a courier, and what `GET /couriers` shows. */
export type CourierCapabilities = {
  id: string;
  name: string;
  services: CourierServiceInfo[];
  /** The service used when neither the order nor the profile names one. */
  defaultService: string;
  /** ISO 3166-1 alpha-2 codes the courier delivers to. */
  countries: readonly string[];
  maxParcelWeightKg: number;
  /** Currencies accepted for cash on delivery; empty when COD is not offered. */
  codCurrencies: readonly string[];
};

export type CourierLimits = {
  /** At most this many calls in flight per profile (the contract: 8 for real couriers). */
  maxInFlightPerProfile: number;
  /** Orders per create call (PPL: one batch for a request's orders; Packeta: packets per createPackets). */
  createBatchSize: number;
  /** Shipments per tracking call (PPL: 50; Packeta: 1, one packetStatus per packet). */
  trackingBatchSize: number;
  /**
   * A create call may not carry one ReferenceNumber twice (PPL: `referenceId` is unique within a batch): a request's
   * orders are split into as few calls as `createBatchSize` allows with each reference once per call.
   */
  uniqueReferencePerCall?: boolean;
};

/** A validated order as a courier sees it (every field the partner sent that a courier may map). */
export type ShipmentRequest = {
  referenceNumber: string;
  externalReference: string | null;
  service: string;
  note: string | null;
  pickupPoint: string | null;
  recipient: {
    name: string;
    company: string | null;
    street: string;
    city: string;
    zip: string;
    country: string;
    email: string | null;
    phone: string | null;
  };
  parcels: {
    weight: number;
    length: number | null;
    width: number | null;
    height: number | null;
    reference: string | null;
  }[];
  codPrice: number | null;
  codCurrency: string | null;
  variableSymbol: string | null;
  insurancePrice: number | null;
};

/**
 * A shipment the courier registered. `courierData` is what the adapter needs later (Packeta: the packet ids per
 * parcel; PPL: the batch id); the platform stores it as JSON beside the order and hands it back unchanged.
 */
export type Shipment = {
  referenceNumber: string;
  /** One per parcel, in parcel order. */
  shippingNumbers: string[];
  trackingUrl: string | null;
  courierData: Record<string, unknown>;
};

export type CreateOutcome =
  | ({ ok: true } & Shipment)
  | {
      ok: false;
      code: Exclude<CourierErrorCode, "COURIER_CANNOT_CANCEL">;
      message: string;
      field: string | null;
      /**
       * The courier may have registered it: the request reached the courier and no answer came (or, PPL, the batch
       * was accepted and the item was still being processed at the timeout). The platform keeps the attempt open and
       * recovery asks the courier (`findShipments`). Absent: the courier did not register it.
       */
      outcomeUnknown?: true;
      /** With `outcomeUnknown`: what finds it at the courier (PPL: `{ batchId }`), handed back to `findShipments`. */
      recoveryHint?: Record<string, unknown>;
    };

/** A shipment the platform knows, as handed back to the adapter. */
export type ShipmentRef = {
  referenceNumber: string;
  shippingNumbers: readonly string[];
  courierData: Record<string, unknown>;
  createdAt: Date;
};

export type TrackingEvent = {
  time: Date;
  status: ShippingStatus;
  /** The courier's own text. */
  description: string;
  location: string | null;
};

export type TrackingResult = {
  /** Every event the courier reports for the shipment, oldest first (the platform stores the new ones). */
  events: TrackingEvent[];
  /**
   * When to ask again at the earliest, or null to let the platform choose its backoff (sooner while in transit).
   * The sandbox answers its next timed step; a final status stops polling whatever this says.
   */
  nextCheckAt: Date | null;
};

export type LabelFile = { body: Uint8Array; contentType: string };

export type CheckResult = { ok: true } | { ok: false; code: CourierErrorCode; message: string };

export type CallContext = {
  /** Aborted when the courier timeout (profile `timeoutMs`, else COURIER_TIMEOUT_MS) has passed. */
  signal: AbortSignal;
  timeoutMs: number;
  /** Time source for anything the adapter computes from time (the sandbox's tracking); tests inject it. */
  now: () => Date;
  /**
   * Shipping numbers from the platform's own never-reused number range, for a courier whose shipper assigns the
   * numbers (the sandbox). Fetched in blocks, so a batch of 500 costs a handful of queries.
   */
  allocateNumbers: (count: number) => Promise<string[]>;
};

export type SettingsSpec<S> = {
  /** Validates a profile's `settings` on create and PATCH (strict: unknown keys are refused). */
  schema: z.ZodType<S>;
  /** Settings that are secret: encrypted at rest, masked `****` + last 4 in every view, kept when a PATCH omits them. */
  secretFields: readonly (keyof S & string)[];
};

/**
 * One courier integration: `server/couriers/<courier>/` holds the adapter, its mapping, its HTTP client and its
 * fake server for tests; `registry.ts` lists the adapters. Nothing else in the platform knows a courier by name.
 */
export interface CourierAdapter<S = Record<string, unknown>> {
  readonly capabilities: CourierCapabilities;
  /**
   * True for a courier reached over the network: each create is recorded as an attempt before the call (so a
   * crash after the courier's answer is recovered), labels are fetched from it once and stored, and tracking is
   * polled by the worker only. False for the built-in sandbox, whose tracking is computed from the clock and
   * brought up to date before reads, and whose labels the platform renders.
   */
  readonly remote: boolean;
  readonly limits: CourierLimits;
  readonly settings: SettingsSpec<S>;
  /** Answer time allowed for one call of this profile, in ms. */
  timeoutMs(settings: S): number;
  /**
   * The courier's own written limits, as validation messages at the order's fields; runs at validate time, before any
   * call. `directory` holds what the batch's `directoryKeys` named (absent where no lookup was made).
   */
  validate(order: ShipmentRequest, settings: S, directory?: DirectoryFacts): ValidationMessage[];
  /** The directory entries `validate` needs for this order (Packeta HOME: its carrier's id), looked up once per batch. */
  directoryKeys?(order: ShipmentRequest, settings: S): { carrier?: string };
  /** Registers up to `limits.createBatchSize` shipments; one outcome per request, in request order. */
  createShipments(requests: readonly ShipmentRequest[], settings: S, ctx: CallContext): Promise<CreateOutcome[]>;
  /** Throws `CourierError("COURIER_CANNOT_CANCEL")` when the courier no longer allows it. */
  cancelShipment(shipment: ShipmentRef, settings: S, ctx: CallContext): Promise<void>;
  /**
   * The courier's label for every parcel of the shipment in one file; absent when the platform renders the labels
   * itself from the order (the sandbox).
   */
  fetchLabel?(shipment: ShipmentRef, format: LabelFormat, settings: S, ctx: CallContext): Promise<LabelFile>;
  /**
   * The tracking an order starts with once the courier registered it at `now`, and when to ask first. Absent: one
   * CREATED event "Registered with <courier>" and the platform's first poll (see track-shipments.ts).
   */
  initialTracking?(now: Date, settings: S): TrackingResult;
  /** Tracking of up to `limits.trackingBatchSize` shipments; one result per shipment, in input order. */
  track(shipments: readonly ShipmentRef[], settings: S, ctx: CallContext): Promise<TrackingResult[]>;
  /** The cheapest authenticated call: do these credentials work? */
  checkCredentials(settings: S, ctx: CallContext): Promise<CheckResult>;
  /**
   * Recovery: the shipments the courier holds (not cancelled) for this request of an attempt whose outcome the
   * platform never learnt, newest first; empty when it has none or cannot tell (no lookup by reference: Packeta).
   * With `hint` (a failed outcome's `recoveryHint`) exactly that request's shipment (PPL: its batch's item); else
   * looked up by reference where the API allows it. Throws (e.g. COURIER_TIMEOUT) when the courier cannot tell yet
   * (a PPL batch still in process): recovery asks again.
   */
  findShipments(
    request: ShipmentRequest,
    settings: S,
    ctx: CallContext,
    hint: Record<string, unknown> | null,
  ): Promise<Shipment[]>;
  /** Whether `findShipments` can find a shipment without a hint (a lookup by reference). */
  readonly canLookUpByReference: boolean;
}
