import { limiterPerCredential } from "../profile-limiter";
import { PDFDocument } from "pdf-lib";
import { env } from "@/server/env";
import type { LabelFormat } from "@/server/labels/label-format";
import {
  CourierError,
  type CallContext,
  type CheckResult,
  type CourierAdapter,
  type CourierErrorCode,
  type CreateOutcome,
  type LabelFile,
  type Shipment,
  type ShipmentRef,
  type ShipmentRequest,
  type TrackingResult,
} from "../adapter";
import { callPpl, jsonOf, pplAccessToken, PplProblem, problemText, type PplRequest, type PplResponse } from "./client";
import {
  batchLabelOrder,
  CANCELLED_PHASES,
  compareShipmentNumbers,
  createBatchBody,
  itemIndexOf,
  labelUrlsOf,
  platformField,
  PPL_COD_CURRENCIES,
  PPL_COUNTRIES,
  PPL_MAX_PARCEL_WEIGHT_KG,
  PPL_SERVICES,
  pplTime,
  pplTrackingUrl,
  shippingNumbersOf,
  trackingEventsOf,
  validateForPpl,
  type PplBatchItem,
  type PplBatchResult,
  type PplLabelSettings,
  type PplShipmentInfo,
} from "./mapping";
import { pplSettings, type PplSettings } from "./settings";
import { uniqueReferenceBatches } from "../unique-batches";

/** At most this many calls in flight per profile (its client id): the contract's bound. */
const IN_FLIGHT_PER_PROFILE = 8;
/** Shipments per `GET /shipment` (PPL's `ShipmentNumbers` takes at most 50). */
const TRACKING_BATCH = 50;
/** Orders per batch: PPL takes up to 1,000; 100 keeps a batch's polling short and a whole-batch refusal small. */
const CREATE_BATCH = 100;
/** Batch polling: 100 ms, doubling, at most 1 s between reads, until the courier timeout. */
const POLL_FIRST_MS = 100;
const POLL_MAX_MS = 1000;

const limitFor = limiterPerCredential(IN_FLIGHT_PER_PROFILE);
const limiterOf = (settings: PplSettings) => limitFor(settings.clientId);

/** One API call in the profile's slots: the token request it may need and its one retry run inside the same slot. */
const call = (settings: PplSettings, ctx: CallContext, request: PplRequest): Promise<PplResponse> =>
  limiterOf(settings)(() => callPpl(settings, ctx.signal, request));

/** Anything thrown by a call as the platform's courier error; a PPL problem counts as `problemCode`. */
function courierErrorOf(error: unknown, problemCode: CourierErrorCode = "COURIER_UNAVAILABLE"): CourierError {
  if (error instanceof CourierError) return error;
  if (error instanceof PplProblem) {
    const first = Object.keys(error.body.errors ?? {})[0];
    const field = problemCode === "COURIER_REJECTED" && first ? platformField(first) : null;
    return new CourierError(problemCode, `PPL: ${error.message}`, field);
  }
  return new CourierError("COURIER_UNAVAILABLE", "PPL could not be reached.");
}

type Failure = Extract<CreateOutcome, { ok: false }>;
const failure = (e: CourierError, recoveryHint?: Record<string, unknown>): Failure => ({
  ok: false,
  code: e.code === "COURIER_CANNOT_CANCEL" ? "COURIER_REJECTED" : e.code,
  message: e.message,
  field: e.field,
  ...(e.outcomeUnknown ? { outcomeUnknown: true as const, ...(recoveryHint ? { recoveryHint } : {}) } : {}),
});

/** The batch id: the last segment of the `Location` answered to `POST /shipment/batch`. */
function batchIdOf(location: string | null): string {
  const id = location
    ? decodeURIComponent(new URL(location, "http://x").pathname.split("/").filter(Boolean).at(-1) ?? "")
    : "";
  // PPL accepted the batch (201) but did not say where it is: it may hold the shipments; a lookup by reference finds them.
  if (!id)
    throw new CourierError("COURIER_UNAVAILABLE", "PPL answered the batch without its location.", null, {
      outcomeUnknown: true,
    });
  return id;
}

/**
 * A 400 problem refuses the whole batch (PPL registers none of it). An order whose `shipments[i]` the problem names
 * gets PPL's messages for it and the field mapped; the others get a message saying the batch was refused for another
 * order (no field); a problem naming no order refuses every order with its own words.
 */
function refusedBatch(requests: readonly ShipmentRequest[], problem: PplProblem): Failure[] {
  const paths = Object.keys(problem.body.errors ?? {});
  const named = new Set(paths.map(itemIndexOf).filter((i): i is number => i !== null));
  return requests.map((_request, index): Failure => {
    const own = paths.filter((p) => itemIndexOf(p) === index);
    if (own.length > 0) {
      const messages = own.flatMap((p) => problem.body.errors?.[p] ?? []);
      return {
        ok: false,
        code: "COURIER_REJECTED",
        message: `PPL: ${messages.join("; ")}`,
        field: platformField(own[0]!),
      };
    }
    if (named.size > 0) {
      const others = [...named].map((i) => requests[i]?.referenceNumber ?? `shipments[${i}]`).join(", ");
      return {
        ok: false,
        code: "COURIER_REJECTED",
        message: `PPL refused the whole batch for another order in it (${others}); this order was not registered.`,
        field: null,
      };
    }
    const batchPath = paths[0];
    return {
      ok: false,
      code: "COURIER_REJECTED",
      message: `PPL: ${problemText(problem.body) || `HTTP ${problem.status}`}`,
      field: batchPath ? platformField(batchPath) : null,
    };
  });
}

/** Waits `ms`, or answers false at once when the signal aborts. */
const pause = (ms: number, signal: AbortSignal): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });

const settled = (item: PplBatchItem | undefined): boolean =>
  item?.importState === "Complete" || item?.importState === "Error";

/**
 * Reads the batch until every order's item is `Complete` or `Error`, backing off from 100 ms to 1 s. A 5xx or a 404
 * while polling does not end it (the batch exists at PPL); refused credentials or the courier timeout do. Items are
 * keyed by `referenceId`, which is unique within a batch (createShipments never sends one twice in a batch).
 */
async function pollBatch(
  settings: PplSettings,
  ctx: CallContext,
  batchId: string,
  references: readonly string[],
): Promise<{ items: Map<string, PplBatchItem>; stop: CourierError | null }> {
  let items = new Map<string, PplBatchItem>();
  for (let delay = POLL_FIRST_MS; ; delay = Math.min(delay * 2, POLL_MAX_MS)) {
    try {
      const response = await call(settings, ctx, {
        method: "GET",
        path: `/shipment/batch/${encodeURIComponent(batchId)}`,
      });
      const result = jsonOf<PplBatchResult>(response);
      items = new Map((result.items ?? []).flatMap((item) => (item.referenceId ? [[item.referenceId, item]] : [])));
      if (references.every((reference) => settled(items.get(reference)))) return { items, stop: null };
    } catch (error) {
      const e = courierErrorOf(error);
      if (e.code === "COURIER_AUTH_FAILED" || e.code === "COURIER_TIMEOUT") return { items, stop: e };
    }
    if (!(await pause(delay, ctx.signal)))
      return {
        items,
        stop: new CourierError(
          "COURIER_TIMEOUT",
          `PPL did not finish registering the order in time (batch ${batchId}).`,
        ),
      };
  }
}

function outcomeOf(
  request: ShipmentRequest,
  item: PplBatchItem | undefined,
  batchId: string,
  stop: CourierError | null,
): CreateOutcome {
  if (item?.importState === "Complete") return { ok: true, ...shipmentOfItem(request.referenceNumber, item, batchId) };
  if (item?.importState === "Error") {
    const text = [item.errorCode, item.errorMessage].filter((t) => t && t.trim() !== "").join(" ");
    return { ok: false, code: "COURIER_REJECTED", message: `PPL: ${text || "the shipment was refused."}`, field: null };
  }
  // PPL accepted the batch and had not finished this item when the platform stopped waiting: it may still register
  // it. Unknown, with the batch to read again (recovery).
  const e = stop ?? new CourierError("COURIER_TIMEOUT", `PPL did not finish registering the order (batch ${batchId}).`);
  return failure(e.unknownOutcome(), { batchId });
}

const shipmentOfItem = (referenceNumber: string, item: PplBatchItem, batchId: string): Shipment => {
  const shippingNumbers = shippingNumbersOf(item);
  return {
    referenceNumber,
    shippingNumbers,
    trackingUrl: shippingNumbers[0] ? pplTrackingUrl(shippingNumbers[0]) : null,
    courierData: { batchId, labelUrls: labelUrlsOf(item) },
  };
};

// ---- Labels ----

/** The batch's label settings per platform format, and the label call's `PageSize`. */
const LABELS: Record<LabelFormat, { labelSettings: PplLabelSettings; pageSize: "Default" | "A4" }> = {
  "pdf-a6": {
    labelSettings: {
      format: "Pdf",
      completeLabelSettings: { isCompleteLabelRequested: true, pageSize: "Default", position: 1 },
    },
    pageSize: "Default",
  },
  "pdf-a4": {
    labelSettings: {
      format: "Pdf",
      completeLabelSettings: { isCompleteLabelRequested: true, pageSize: "A4", position: 1 },
    },
    pageSize: "A4",
  },
  zpl: {
    labelSettings: {
      format: "Zpl",
      dpi: 203,
      completeLabelSettings: { isCompleteLabelRequested: true, pageSize: "Default", position: 1 },
    },
    pageSize: "Default",
  },
};

// The label format is a setting of the whole batch: one label fetch per batch at a time in this process, so two
// formats asked of one batch at once cannot swap each other's settings between the PUT and the GET.
const batchQueues = new Map<string, Promise<unknown>>();
function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (batchQueues.get(key) ?? Promise.resolve()).then(task, task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  batchQueues.set(key, tail);
  void tail.then(() => {
    if (batchQueues.get(key) === tail) batchQueues.delete(key);
  });
  return run;
}

/** Consecutive label positions as `{ offset, limit }` ranges, in order. */
function rangesOf(positions: readonly number[]): { offset: number; limit: number }[] {
  const ranges: { offset: number; limit: number }[] = [];
  for (const position of positions) {
    const last = ranges.at(-1);
    if (last && last.offset + last.limit === position) last.limit += 1;
    else ranges.push({ offset: position, limit: 1 });
  }
  return ranges;
}

async function mergePdfs(docs: readonly PDFDocument[]): Promise<Uint8Array> {
  const merged = await PDFDocument.create();
  for (const doc of docs) for (const page of await merged.copyPages(doc, doc.getPageIndices())) merged.addPage(page);
  return merged.save();
}

/** A4 in points (210 × 297 mm), either way round, within 3 %. */
const isA4 = ({ width, height }: { width: number; height: number }): boolean => {
  const [short, long] = width < height ? [width, height] : [height, width];
  return Math.abs(short - 595.28) / 595.28 < 0.03 && Math.abs(long - 841.89) / 841.89 < 0.03;
};

const startsWith = (body: Uint8Array, prefix: string): boolean =>
  new TextDecoder().decode(body.subarray(0, 64)).trimStart().startsWith(prefix);

/** Whether a label failure is worth another way of asking (not a timeout, not refused credentials). */
const retryable = (error: unknown) => {
  const code = error instanceof CourierError ? error.code : null;
  return code !== "COURIER_TIMEOUT" && code !== "COURIER_AUTH_FAILED";
};

/**
 * The labels of a shipment. PPL names each parcel's label URL in the batch's answer (`labelUrl`, a bearer-token
 * `GET /data/{dataGuid}` that takes no parameters), in the format the batch was created with (PDF, default size);
 * the batch's label endpoint takes the page size and format explicitly. `pdf-a6` (PPL's default) is read from the
 * parcels' label URLs first and falls back to the batch endpoint; `pdf-a4` and `zpl` only from the batch endpoint (a
 * label URL cannot be asked for another format or size, so it never stands in for them).
 */
async function readLabel(
  shipment: ShipmentRef,
  format: LabelFormat,
  settings: PplSettings,
  ctx: CallContext,
): Promise<LabelFile> {
  const urls = Array.isArray(shipment.courierData.labelUrls)
    ? shipment.courierData.labelUrls.filter((u): u is string => typeof u === "string" && u !== "")
    : [];
  const fromUrls = () => labelFromUrls(urls, format, settings, ctx);
  const fromBatch = () => labelFromBatch(shipment, format, settings, ctx);
  if (format !== "pdf-a6" || urls.length === 0) return fromBatch();
  try {
    return await fromUrls();
  } catch (error) {
    if (!retryable(error)) throw error;
    return fromBatch();
  }
}

/** Each parcel's `labelUrl` as PPL named it (no query: PPL defines none), one PDF: PPL's default size, merged. */
async function labelFromUrls(
  urls: readonly string[],
  format: LabelFormat,
  settings: PplSettings,
  ctx: CallContext,
): Promise<LabelFile> {
  const parts: Uint8Array[] = [];
  for (const absoluteUrl of urls)
    parts.push((await call(settings, ctx, { method: "GET", path: "", absoluteUrl, accept: "*/*" })).body);
  return labelFileOf(parts, format);
}

/**
 * The parts of a label as one file, checked to be what was asked before the platform keeps it: ZPL (`^XA`), or a PDF
 * whose pages are A4 for `pdf-a4` and smaller than A4 for `pdf-a6` (a default-size label is never kept as A4, nor an
 * A4 sheet as the default).
 */
async function labelFileOf(parts: readonly Uint8Array[], format: LabelFormat): Promise<LabelFile> {
  if (format === "zpl") {
    if (!parts.every((p) => new TextDecoder().decode(p).includes("^XA")))
      throw new CourierError("COURIER_UNAVAILABLE", "PPL answered a label that is not ZPL.");
    const text = parts.map((p) => new TextDecoder().decode(p).trim()).join("\n");
    return { body: new TextEncoder().encode(text), contentType: "text/plain; charset=utf-8" };
  }
  if (!parts.every((p) => startsWith(p, "%PDF")))
    throw new CourierError("COURIER_UNAVAILABLE", "PPL answered a label that is not a PDF.");
  const docs = await Promise.all(
    parts.map((p) =>
      PDFDocument.load(p).catch(() => {
        throw new CourierError("COURIER_UNAVAILABLE", "PPL answered a label PDF that cannot be read.");
      }),
    ),
  );
  const pages = docs.flatMap((doc) => doc.getPages().map((page) => page.getSize()));
  const a4 = format === "pdf-a4";
  if (pages.length === 0 || !pages.every((size) => isA4(size) === a4))
    throw new CourierError(
      "COURIER_UNAVAILABLE",
      `PPL answered a label whose pages are not ${a4 ? "A4" : "PPL's default size (smaller than A4)"}.`,
    );
  if (parts.length === 1) return { body: parts[0]!, contentType: "application/pdf" };
  return { body: await mergePdfs(docs), contentType: "application/pdf" };
}

async function labelFromBatch(
  shipment: ShipmentRef,
  format: LabelFormat,
  settings: PplSettings,
  ctx: CallContext,
): Promise<LabelFile> {
  const batchId = shipment.courierData.batchId;
  if (typeof batchId !== "string" || batchId === "")
    throw new CourierError("COURIER_UNAVAILABLE", "PPL gives labels per batch, and this shipment has no batch id.");
  const batchPath = `/shipment/batch/${encodeURIComponent(batchId)}`;
  const { labelSettings, pageSize } = LABELS[format];
  return oneAtATime(batchId, async () => {
    await call(settings, ctx, { method: "PUT", path: batchPath, json: { labelSettings } });
    // The label call pages over the batch's labels: find this shipment's positions in PPL's shipment-number order.
    const order = batchLabelOrder(
      jsonOf<PplBatchResult>(await call(settings, ctx, { method: "GET", path: batchPath })),
    );
    const positions = [...shipment.shippingNumbers].sort(compareShipmentNumbers).map((n) => order.indexOf(n));
    if (positions.length === 0 || positions.some((p) => p < 0))
      throw new CourierError("COURIER_UNAVAILABLE", `PPL's batch ${batchId} does not list this shipment's labels.`);
    const parts: Uint8Array[] = [];
    for (const { offset, limit } of rangesOf(positions)) {
      const response = await call(settings, ctx, {
        method: "GET",
        path: `${batchPath}/label`,
        query: { PageSize: pageSize, Position: 1, limit, offset, OrderBy: "ShipmentNumber" },
      });
      parts.push(response.body);
    }
    return labelFileOf(parts, format);
  });
}

// ---- Recovery ----

const lastPhaseOf = (shipment: PplShipmentInfo): string | null => {
  const events = (shipment.trackAndTrace?.events ?? [])
    .map((e) => ({ phase: e.phase ?? null, time: e.eventDate ? (pplTime(e.eventDate)?.getTime() ?? 0) : 0 }))
    .sort((a, b) => a.time - b.time);
  return events.at(-1)?.phase ?? null;
};

/**
 * The shipments PPL holds for a reference: its parcels grouped by set (`masterShipmentNumber`), cancelled ones left
 * out; newest (highest master number) first.
 */
function shipmentsOfLookup(referenceNumber: string, found: readonly PplShipmentInfo[]): Shipment[] {
  const sets = new Map<string, PplShipmentInfo[]>();
  for (const parcel of found) {
    if (!parcel.shipmentNumber || CANCELLED_PHASES.includes(lastPhaseOf(parcel) ?? "")) continue;
    const master = parcel.shipmentSet?.masterShipmentNumber || parcel.shipmentNumber;
    sets.set(master, [...(sets.get(master) ?? []), parcel]);
  }
  return [...sets.keys()]
    .sort(compareShipmentNumbers)
    .reverse()
    .map((master) => {
      const shippingNumbers = sets
        .get(master)!
        .sort(
          (a, b) =>
            (a.shipmentSet?.shipmentInSetNumber ?? 0) - (b.shipmentSet?.shipmentInSetNumber ?? 0) ||
            compareShipmentNumbers(a.shipmentNumber!, b.shipmentNumber!),
        )
        .map((p) => p.shipmentNumber!);
      return {
        referenceNumber,
        shippingNumbers,
        trackingUrl: pplTrackingUrl(shippingNumbers[0]!),
        courierData: { batchId: null, labelUrls: [] },
      };
    });
}

/** The shipments of a reference by `GET /shipment?CustomerReferences=…` (the `CUST` external number every shipment carries). */
async function lookUpByReference(
  request: ShipmentRequest,
  settings: PplSettings,
  ctx: CallContext,
): Promise<Shipment[]> {
  try {
    const response = await call(settings, ctx, {
      method: "GET",
      path: "/shipment",
      query: { CustomerReferences: [request.referenceNumber], Limit: TRACKING_BATCH, Offset: 0 },
    });
    return shipmentsOfLookup(request.referenceNumber, shipmentsOf(response));
  } catch (error) {
    if (error instanceof PplProblem && error.status === 404) return [];
    throw courierErrorOf(error);
  }
}

/**
 * One batch's requests, each `referenceId` at most once (the caller, create-at-courier.ts, splits them so): one
 * `POST /shipment/batch`, then the batch read until each item is `Complete` or `Error`.
 */
async function createBatch(
  requests: readonly ShipmentRequest[],
  settings: PplSettings,
  ctx: CallContext,
): Promise<CreateOutcome[]> {
  let batchId: string;
  try {
    const response = await call(settings, ctx, {
      method: "POST",
      path: "/shipment/batch",
      json: createBatchBody(requests, settings),
    });
    batchId = batchIdOf(response.headers.get("location"));
  } catch (error) {
    if (error instanceof PplProblem) return refusedBatch(requests, error);
    const e = courierErrorOf(error);
    return requests.map(() => failure(e));
  }
  const { items, stop } = await pollBatch(
    settings,
    ctx,
    batchId,
    requests.map((r) => r.referenceNumber),
  );
  return requests.map((request) => outcomeOf(request, items.get(request.referenceNumber), batchId, stop));
}

/** Whether PPL lists the shipment as cancelled (its last phase `Canceled` or `Deleted`). */
async function alreadyCancelled(shipmentNumber: string, settings: PplSettings, ctx: CallContext): Promise<boolean> {
  try {
    const response = await call(settings, ctx, {
      method: "GET",
      path: "/shipment",
      query: { ShipmentNumbers: [shipmentNumber], Limit: 1, Offset: 0 },
    });
    const found = shipmentsOf(response).find((s) => s.shipmentNumber === shipmentNumber);
    return found !== undefined && CANCELLED_PHASES.includes(lastPhaseOf(found) ?? "");
  } catch (error) {
    if (error instanceof PplProblem) return false;
    throw courierErrorOf(error);
  }
}

const shipmentsOf = (response: PplResponse): PplShipmentInfo[] => {
  const list = jsonOf<unknown>(response);
  if (!Array.isArray(list))
    throw new CourierError("COURIER_UNAVAILABLE", "PPL answered shipments that are not a list.");
  return list as PplShipmentInfo[];
};

export const pplCourier: CourierAdapter<PplSettings> = {
  remote: true,
  capabilities: {
    id: "ppl",
    name: "PPL",
    services: Object.entries(PPL_SERVICES).map(([code, service]) => ({
      code,
      name: service.name,
      requiresPickupPoint: code === "PARCELSHOP",
    })),
    defaultService: "PRIVATE",
    countries: PPL_COUNTRIES,
    maxParcelWeightKg: PPL_MAX_PARCEL_WEIGHT_KG,
    codCurrencies: PPL_COD_CURRENCIES,
  },
  limits: {
    maxInFlightPerProfile: IN_FLIGHT_PER_PROFILE,
    createBatchSize: CREATE_BATCH,
    trackingBatchSize: TRACKING_BATCH,
    uniqueReferencePerCall: true,
  },
  settings: { schema: pplSettings, secretFields: ["clientSecret"] },
  timeoutMs: (settings) => settings.timeoutMs ?? env().COURIER_TIMEOUT_MS,
  validate: validateForPpl,

  /**
   * One `POST /shipment/batch` for all the requests, then the batch read until each item is `Complete` or `Error`.
   * A reference repeated among the requests (one ReferenceNumber under two source pairs) goes in batches of its own
   * (PPL's `referenceId` is unique within a batch, and items are matched by it); create-at-courier.ts already
   * splits a request's orders so, this is the adapter's own guard. Courier faults become outcomes, never exceptions.
   */
  async createShipments(requests, settings, ctx): Promise<CreateOutcome[]> {
    if (requests.length === 0) return [];
    const batches = uniqueReferenceBatches(
      requests.map((r) => r.referenceNumber),
      requests.length,
    );
    const outcomes: CreateOutcome[] = [];
    await Promise.all(
      batches.map(async (indexes) => {
        const answered = await createBatch(
          indexes.map((i) => requests[i]!),
          settings,
          ctx,
        );
        indexes.forEach((index, i) => (outcomes[index] = answered[i]!));
      }),
    );
    return outcomes;
  },

  /**
   * `POST /shipment/{shipmentNumber}/cancel` for each parcel, the set's first parcel first. PPL answers 200 or a 400
   * problem (its OpenAPI document lists no other), also for a shipment it has already cancelled: so a refusal of the
   * first parcel is checked against the shipment's phase (`GET /shipment`), and a shipment already `Canceled` is done
   * (a retried cancel succeeds); otherwise it is COURIER_CANNOT_CANCEL. A refusal of a further parcel after the first
   * was cancelled is taken as the set having been cancelled with it.
   */
  async cancelShipment(shipment, settings, ctx) {
    for (const [index, shipmentNumber] of shipment.shippingNumbers.entries()) {
      try {
        await call(settings, ctx, { method: "POST", path: `/shipment/${encodeURIComponent(shipmentNumber)}/cancel` });
      } catch (error) {
        if (error instanceof PplProblem) {
          if (index > 0 || (await alreadyCancelled(shipmentNumber, settings, ctx))) continue;
          throw new CourierError("COURIER_CANNOT_CANCEL", `PPL: ${error.message}`);
        }
        throw courierErrorOf(error);
      }
    }
  },

  /**
   * The shipment's labels in one file from the batch's label call: the format set on the batch first
   * (`PUT /shipment/batch/{batchId}`: Pdf, or Zpl at 203 dpi), the page size in the call (`PageSize` Default or A4).
   */
  async fetchLabel(shipment, format, settings, ctx): Promise<LabelFile> {
    try {
      return await readLabel(shipment, format, settings, ctx);
    } catch (error) {
      const e = courierErrorOf(error);
      if (e.code === "COURIER_TIMEOUT" || e.code === "COURIER_AUTH_FAILED") throw e;
      throw new CourierError("COURIER_UNAVAILABLE", e.message.startsWith("PPL") ? e.message : `PPL: ${e.message}`);
    }
  },

  /** `GET /shipment?ShipmentNumbers=…` for up to 50 shipments, each by its first parcel (a set's master). */
  async track(shipments, settings, ctx): Promise<TrackingResult[]> {
    const firsts = shipments.map((s) => s.shippingNumbers[0]);
    const numbers = [...new Set(firsts.filter((n): n is string => !!n))];
    if (numbers.length === 0) return shipments.map(() => ({ events: [], nextCheckAt: null }));
    let found: PplShipmentInfo[];
    try {
      const response = await call(settings, ctx, {
        method: "GET",
        path: "/shipment",
        query: { ShipmentNumbers: numbers, Limit: TRACKING_BATCH, Offset: 0 },
      });
      found = shipmentsOf(response);
    } catch (error) {
      // PPL's `GET /shipment` may answer 404 when it finds none of the numbers: no events yet, not a failure.
      if (error instanceof PplProblem && error.status === 404) found = [];
      else throw courierErrorOf(error);
    }
    const byNumber = new Map(found.flatMap((s) => (s.shipmentNumber ? [[s.shipmentNumber, s]] : [])));
    return firsts.map((first) => ({
      events: trackingEventsOf((first && byNumber.get(first)?.trackAndTrace?.events) || []),
      nextCheckAt: null,
    }));
  },

  /**
   * An access token: the cheapest proof that the client credentials work. The one cached for these credentials (base
   * URL, client id, secret) is proof enough while it is valid, as for calls: each check asking PPL for a new one would
   * spend PPL's ~12 token requests a minute. Changed credentials are another cache key, so they are asked at once.
   */
  async checkCredentials(settings, ctx): Promise<CheckResult> {
    try {
      await limiterOf(settings)(() => pplAccessToken(settings, ctx.signal));
      return { ok: true };
    } catch (error) {
      const e = courierErrorOf(error);
      return { ok: false, code: e.code, message: e.message };
    }
  },

  /**
   * With a batch id (`hint.batchId`, an unknown outcome of an accepted batch): the request's item of that batch
   * (`GET /shipment/batch/{id}`, matched by its `referenceId`, unique within the batch): `Complete` → its shipment,
   * `Error` → none, still `InProcess` → COURIER_TIMEOUT (asked again later). Without one (or a batch PPL no longer
   * knows): `GET /shipment?CustomerReferences=<ReferenceNumber>`, every set not cancelled, newest first.
   */
  canLookUpByReference: true,
  async findShipments(request, settings, ctx, hint): Promise<Shipment[]> {
    const batchId = typeof hint?.batchId === "string" && hint.batchId !== "" ? hint.batchId : null;
    if (batchId) {
      let result: PplBatchResult | null = null;
      try {
        result = jsonOf<PplBatchResult>(
          await call(settings, ctx, { method: "GET", path: `/shipment/batch/${encodeURIComponent(batchId)}` }),
        );
      } catch (error) {
        if (!(error instanceof PplProblem && error.status === 404)) throw courierErrorOf(error);
      }
      if (result) {
        const item = (result.items ?? []).find((i) => i.referenceId === request.referenceNumber);
        if (item?.importState === "Complete") return [shipmentOfItem(request.referenceNumber, item, batchId)];
        if (item?.importState === "Error") return [];
        throw new CourierError("COURIER_TIMEOUT", `PPL is still registering the order (batch ${batchId}).`);
      }
    }
    return lookUpByReference(request, settings, ctx);
  },
};
