import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { rgb } from "pdf-lib";
import { fakeLabelPdf, type FakeLabel } from "../fake-label";
import { createAccessPointDirectory } from "./fake-access-points";
import { openApiErrorsOf } from "./fake-openapi";

/*
 * A fake of PPL's CPL API ("myapi2") on 127.0.0.1, built from PPL's specification and answering with the fixtures in
 * `fixtures/`. Tests, the e2e set-up (a plain Node process) and the bench point `COURIER_PPL_URL` at `url`. Request
 * bodies are validated against PPL's OpenAPI document (`fake-openapi.ts`, ajv) and refused with PPL's 400 problem;
 * PPL's product rules that the document states only in words are the batch items' `Error`s (`productRuleError`).
 */

/** One request the fake received. `path` is below the base path (`/shipment/batch`), `body` parsed (JSON or form). */
export type PplFakeRequest = {
  method: string;
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string>;
  body: unknown;
  raw: string;
};

/**
 * How the fake answers: normally; with every batch item in `Error`; with a 400 problem for the batch (naming
 * `shipments[0].recipient.zipCode`); refusing the credentials (token 401); 503 to everything; never; refusing
 * cancels; or 503 to cancels only (PPL down for a moment right when a replaced order's shipment is cancelled).
 */
export type PplFakeMode =
  "ok" | "refuse" | "bad-request" | "auth" | "5xx" | "hang" | "cancel-not-allowed" | "cancel-unavailable";

/** How shipment numbers are handed out: each set's parcels consecutively, or every set's first parcel before the rest. */
export type PplFakeNumbering = "consecutive" | "interleaved";

export type PplFakeShipment = {
  shipmentNumber: string;
  referenceId: string;
  customerReference: string;
  batchId: string;
  productType: string;
  master: string;
  setSize: number;
  setIndex: number;
  phase: string;
  createdAt: number;
  /** Moved by the fake's clock (option `clock`) until `setPhase` or a cancel takes it off. */
  onClock: boolean;
  /** What its label shows: the batch's sender and recipient, its COD. */
  sender: Json | null;
  recipient: Json | null;
  cashOnDelivery: Json | null;
};

const BASE_PATH = "/ecs/ppl/myapi2";
const fixtureText = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");
const fixture = <T>(name: string): T => JSON.parse(fixtureText(name)) as T;

type Json = Record<string, unknown>;
type BatchItem = {
  referenceId: string;
  state: "Complete" | "Error";
  numbers: string[];
  errorCode?: string;
  errorMessage?: string;
};
/** A rule PPL states in words (its OpenAPI descriptions, its plugin's code), broken by one shipment of a batch. */
type ProductRuleError = { errorCode: string; errorMessage: string };

/** PPL's insurance limits per product (CZK, from above the included cover): limits.php of PPL's plugin, `INSURANCE`. */
const INSURANCE_LIMITS: Record<string, [min: number, max: number]> = {
  PRIV: [50_000.01, 500_000],
  PRID: [50_000.01, 500_000],
  BUSS: [50_000.01, 500_000],
  BUSD: [50_000.01, 500_000],
  SMAR: [20_000.01, 500_000],
  SMAD: [20_000.01, 500_000],
  CONN: [100_000.01, 500_000],
  COND: [100_000.01, 500_000],
};
/** Countries PPL collects cash on delivery in (its country code list) and their currencies (the plugin's tables). */
const COD_CURRENCIES: Record<string, string[]> = {
  CZ: ["CZK"],
  SK: ["EUR", "CZK"],
  PL: ["PLN"],
  HU: ["HUF"],
  RO: ["RON"],
};

/**
 * What PPL refuses in a shipment that its document only says in words: insurance only in CZK
 * (`InsuranceFeatureModel.insuranceCurrency`) and within the product's limits (`insurancePrice`: "Max limity -
 * /codelist/servicePriceLimit"); one parcel for PPL Parcel Connect (the plugin's `ShipmentValidator`: "Počet zásilek
 * je omezen na jednu"); cash on delivery only where the country code list allows it, in the country's currency; at
 * most 50 parcels in a set (`numberOfShipments`: "Max 50").
 */
export function productRuleError(shipment: Json): ProductRuleError | null {
  const product = String(shipment.productType);
  const insurance = shipment.insurance as { insurancePrice?: number; insuranceCurrency?: string } | null | undefined;
  if (insurance) {
    if (insurance.insuranceCurrency !== "CZK")
      return { errorCode: "InsuranceCurrency", errorMessage: "Insurance can only be in CZK." };
    const [min, max] = INSURANCE_LIMITS[product] ?? [Infinity, 0];
    if (Number(insurance.insurancePrice) < min || Number(insurance.insurancePrice) > max)
      return {
        errorCode: "InsurancePrice",
        errorMessage: `Insurance for ${product} must be between ${min} and ${max} CZK.`,
      };
  }
  const parcels = Number((shipment.shipmentSet as Json | null | undefined)?.numberOfShipments ?? 1);
  if (["CONN", "COND"].includes(product) && parcels > 1)
    return { errorCode: "ShipmentSet", errorMessage: `${product} takes one parcel per shipment.` };
  if (parcels > 50) return { errorCode: "ShipmentSet", errorMessage: "A shipment set has at most 50 parcels." };
  const cod = shipment.cashOnDelivery as { codCurrency?: string } | null | undefined;
  if (cod) {
    const country = String((shipment.recipient as Json).country);
    if (!COD_CURRENCIES[country]?.includes(String(cod.codCurrency)))
      return {
        errorCode: "CodCurrency",
        errorMessage: `Cash on delivery in ${String(cod.codCurrency)} is not possible in ${country}.`,
      };
  }
  return null;
}

type Batch = {
  id: string;
  items: BatchItem[];
  pollsLeft: number;
  /** Registered during the `in-process` fault: `InProcess` until the fault ends (control `ok`). */
  held?: boolean;
  labelSettings: { format: string; dpi?: number };
};

/** The events PPL reports on the way to each phase (phase, code, PPL's text). */
const STEPS: Record<string, [string, string, string][]> = {
  Order: [["Order", "100", "Shipment data received by PPL."]],
  InTransport: [
    ["InTransport", "200", "Shipment picked up from the sender."],
    ["InTransport", "210", "Shipment arrived at the depot Praha."],
  ],
  Delivering: [["Delivering", "300", "Shipment is out for delivery."]],
  PickupPoint: [["PickupPoint", "310", "Shipment is ready for pickup at the ParcelShop."]],
  Delivered: [["Delivered", "400", "Shipment delivered."]],
  Returning: [["Returning", "500", "Shipment is on its way back to the sender."]],
  BackToSender: [["BackToSender", "510", "Shipment returned to the sender."]],
  Canceled: [["Canceled", "900", "Shipment cancelled."]],
};
const PATHS: Record<string, string[]> = {
  Order: ["Order"],
  InTransport: ["Order", "InTransport"],
  Delivering: ["Order", "InTransport", "Delivering"],
  PickupPoint: ["Order", "InTransport", "PickupPoint"],
  Delivered: ["Order", "InTransport", "Delivering", "Delivered"],
  Returning: ["Order", "InTransport", "Delivering", "Returning"],
  BackToSender: ["Order", "InTransport", "Delivering", "Returning", "BackToSender"],
  Canceled: ["Order", "Canceled"],
};

/**
 * The way of a shipment on the fake's clock, one event a step (`STEPS`): registered, picked up, at the depot, then
 * out for delivery (a ParcelShop product: ready at the ParcelShop) and delivered.
 */
const WAY = ["Order", "InTransport", "Delivering", "Delivered"];
const PARCELSHOP_WAY = ["Order", "InTransport", "PickupPoint", "Delivered"];
const PARCELSHOP_PRODUCTS = ["SMAR", "SMAD"];

/** Moves shipments one event every `stepMinutes` (from their registration), read from `now` (default: the real clock). */
export type FakeCourierClock = { stepMinutes: number; now?: () => Date };

/** PPL's blue, the colour of its label header. */
const PPL_BLUE = rgb(0.0, 0.22, 0.55);

/** A shipment's label as PPL lays it out: product, sender (the contract customer), recipient, barcode, COD. */
function shipmentLabel(shipment: PplFakeShipment | undefined, shipmentNumber: string, clientId: string): FakeLabel {
  const r = shipment?.recipient ?? {};
  const text = (value: unknown) => (value === undefined || value === null ? "" : String(value));
  const cod = shipment?.cashOnDelivery;
  return {
    courier: "PPL",
    brand: PPL_BLUE,
    service: text(shipment?.productType),
    barcode: shipmentNumber,
    barcodeText: shipmentNumber,
    sender: shipment?.sender
      ? [
          text(shipment.sender.name),
          text(shipment.sender.street),
          `${text(shipment.sender.zipCode)} ${text(shipment.sender.city)}`,
        ]
      : [`PPL customer ${clientId}`],
    recipient: [
      text(r.name),
      text(r.contact),
      text(r.street),
      `${text(r.zipCode)} ${text(r.city)}`.trim(),
      text(r.country),
      text(r.phone),
    ].filter(Boolean),
    details: [
      `Reference ${text(shipment?.customerReference)}`,
      `Parcel ${shipment?.setIndex ?? 1} / ${shipment?.setSize ?? 1}`,
    ],
    cod: cod ? `${text(cod.codPrice)} ${text(cod.codCurrency)}` : null,
  };
}

const fakeZpl = (numbers: string[], dpi: number) =>
  numbers.map((n) => `^XA^CI28^FO40,40^A0N,30,30^FDPPL ${dpi} dpi^FS^FO40,90^BCN,120,Y,N,N^FD${n}^FS^XZ`).join("\n");

export async function startFakePpl(options: {
  clientId: string;
  clientSecret: string;
  delayMs?: number;
  /** GETs of a new batch answered `InProcess` before it is `Complete` (default 0). */
  pendingPolls?: number;
  numbering?: PplFakeNumbering;
  /** The first shipment number (default: a random block, so fakes of parallel test files never collide). */
  firstNumber?: number;
  /** 0 or none: any free port. */
  port?: number;
  /**
   * Serves `/__fake/fault` and `/__fake/ledger` beside PPL's API (outside its base path), for a suite that runs the
   * fake as a process (the invariant suite): faults switched at run time, and the ledger of registered shipments.
   */
  control?: boolean;
  /** The synthetic access-point directory `GET /accessPoint` serves (default: the demo's size). */
  accessPoints?: { count?: number; seed?: number };
  /**
   * For `npm run dev`: each shipment moves one event of its way (`WAY`, `PARCELSHOP_WAY`) every `stepMinutes`, as the
   * sandbox does. Without it a shipment stays in `Order` until `setPhase` or a cancel (what the tests expect).
   */
  clock?: FakeCourierClock;
}) {
  const now = () => options.clock?.now?.().getTime() ?? Date.now();
  const accessPoints = createAccessPointDirectory(options.accessPoints);
  let mode: PplFakeMode = "ok";
  let delayMs = options.delayMs ?? 0;
  let pendingPolls = options.pendingPolls ?? 0;
  let numbering: PplFakeNumbering = options.numbering ?? "consecutive";
  let nextNumber = options.firstNumber ?? 40_000_000_000 + Math.floor(Math.random() * 9_000_000) * 1000;
  let nextToken = 1;
  let inFlight = 0;
  const state = { maxInFlight: 0, tokensIssued: 0 };
  const requests: PplFakeRequest[] = [];
  const validTokens = new Set<string>();
  const batches = new Map<string, Batch>();
  const shipments = new Map<string, PplFakeShipment>();
  const labelData = new Map<string, string>(); // data guid → shipment number
  const hanging = new Set<ServerResponse>();
  let url = "";
  /**
   * A fault of a shipment batch's registration (POST /shipment/batch) only: `late` registers and answers after
   * `lateMs` (past the platform's courier timeout), `cut` registers and then resets the connection instead of
   * answering. (`hang`, PPL never answering anything, is the mode of that name; a batch kept `InProcess` is
   * `pendingPolls`, or the control's `in-process` fault: every batch registered while it lasts stays `InProcess`
   * until it ends, as a PPL busy for a while.)
   */
  let createFault: { kind: "none" | "late" | "cut"; lateMs: number } = { kind: "none", lateMs: 0 };
  /**
   * Tests: while set, each batch registration is held unanswered and unregistered until `releaseCreates()` registers
   * and answers it (by then the caller has given up): a request PPL is still working on when it is looked up.
   */
  let holdCreates = false;
  let heldCreates: (() => void)[] = [];
  let holdNewBatches = false;
  /** `GET /__fake/next-registration` callers, told when the next batch has been registered and answered. */
  let registrationWaiters: (() => void)[] = [];

  /** PPL's problem shape (`ProblemJsonModel`: type, title, status, detail, instance, errors). */
  const problem = (status: number, title: string, detail?: string, errors?: Record<string, string[]>) => ({
    status,
    type: "application/problem+json",
    body: JSON.stringify({ type: `https://httpstatuses.io/${status}`, title, status, detail, errors }),
  });
  const validationProblem = (errors: Record<string, string[]>, instance: string) => ({
    status: 400,
    type: "application/problem+json",
    body: JSON.stringify({
      type: "https://tools.ietf.org/html/rfc7231#section-6.5.1",
      title: "One or more validation errors occurred.",
      status: 400,
      detail: null,
      instance,
      errors,
    }),
  });
  type Answer = {
    status: number;
    type?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    /** Send this many bytes of the body, then destroy the connection (a feed cut half-way). */
    cutAfter?: number;
    delayMs?: number;
  };
  const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
    status,
    type: "application/json",
    body: JSON.stringify(body),
    headers,
  });

  const allocate = () => String(nextNumber++);

  function createBatch(body: Json): Answer {
    const invalid = openApiErrorsOf("createShipmentBatch", body);
    if (invalid) return validationProblem(invalid, "/shipment/batch");
    const list = body.shipments as Json[];
    if (mode === "bad-request") {
      const answer = fixtureText("problem-400.response.json");
      return { status: 400, type: "application/problem+json", body: answer };
    }
    const id = randomUUID();
    const refused = fixture<{ items: Json[] }>("get-batch-refused.response.json").items[0]!;
    const ruleErrors = list.map(productRuleError);
    const sizes = list.map((s, i) =>
      mode === "refuse" || ruleErrors[i]
        ? 0
        : Math.max(1, Number((s.shipmentSet as Json | undefined)?.numberOfShipments ?? 1)),
    );
    const numbers: string[][] = list.map(() => []);
    if (numbering === "consecutive")
      sizes.forEach((size, i) => numbers[i]!.push(...Array.from({ length: size }, allocate)));
    else {
      sizes.forEach((size, i) => size > 0 && numbers[i]!.push(allocate()));
      sizes.forEach((size, i) => numbers[i]!.push(...Array.from({ length: Math.max(0, size - 1) }, allocate)));
    }
    const items: BatchItem[] = list.map((s, i) => {
      const referenceId = String(s.referenceId);
      const error =
        mode === "refuse"
          ? { errorCode: String(refused.errorCode), errorMessage: String(refused.errorMessage) }
          : ruleErrors[i];
      if (error) return { referenceId, state: "Error", numbers: [], ...error };
      const external = (s.externalNumbers as Json[] | undefined)?.find((e) => e.code === "CUST");
      numbers[i]!.forEach((shipmentNumber, setIndex) =>
        shipments.set(shipmentNumber, {
          shipmentNumber,
          referenceId,
          customerReference: String(external?.externalNumber ?? referenceId),
          batchId: id,
          productType: String(s.productType),
          master: numbers[i]![0]!,
          setSize: numbers[i]!.length,
          setIndex: setIndex + 1,
          phase: "Order",
          createdAt: now(),
          onClock: options.clock !== undefined,
          sender: (body.sender ?? s.sender ?? null) as Json | null,
          recipient: (s.recipient ?? null) as Json | null,
          cashOnDelivery: (s.cashOnDelivery ?? null) as Json | null,
        }),
      );
      return { referenceId, state: "Complete", numbers: numbers[i]! };
    });
    const labelSettings = (body.labelSettings as Batch["labelSettings"] | undefined) ?? { format: "Pdf" };
    batches.set(id, { id, items, pollsLeft: pendingPolls, labelSettings, held: holdNewBatches });
    return { status: 201, headers: { location: `${url}/shipment/batch/${id}` } };
  }

  function labelUrl(shipmentNumber: string): string {
    const guid = randomUUID();
    labelData.set(guid, shipmentNumber);
    return `${url}/data/${guid}`;
  }

  function readBatch(batch: Batch): Answer {
    const template = fixture<{ items: Json[] }>("get-batch.response.json").items[0]!;
    const inProcess = batch.held === true || batch.pollsLeft > 0;
    if (batch.pollsLeft > 0) batch.pollsLeft -= 1;
    const items = batch.items.map((item) => {
      if (inProcess)
        return {
          ...template,
          referenceId: item.referenceId,
          shipmentNumber: null,
          labelUrl: null,
          importState: "InProcess",
          relatedItems: [],
        };
      if (item.state === "Error")
        return {
          ...template,
          referenceId: item.referenceId,
          shipmentNumber: null,
          labelUrl: null,
          importState: "Error",
          errorCode: item.errorCode,
          errorMessage: item.errorMessage,
          relatedItems: [],
        };
      const [first, ...rest] = item.numbers;
      return {
        ...template,
        referenceId: item.referenceId,
        shipmentNumber: first,
        labelUrl: labelUrl(first!),
        importState: "Complete",
        relatedItems: rest.map((shipmentNumber) => ({
          shipmentNumber,
          labelUrl: labelUrl(shipmentNumber),
          importState: "Complete",
          errorCode: null,
          errorMessage: null,
          relationType: "ShipmentSet",
        })),
      };
    });
    return json(200, { completeLabel: null, items });
  }

  async function labelFile(batch: Batch, numbers: string[], pageSize: string): Promise<Answer> {
    if (batch.labelSettings.format === "Zpl")
      return { status: 200, type: "text/plain", body: fakeZpl(numbers, batch.labelSettings.dpi ?? 203) };
    const labels = numbers.map((n) => shipmentLabel(shipments.get(n), n, options.clientId));
    return {
      status: 200,
      type: "application/pdf",
      body: Buffer.from(await fakeLabelPdf(labels, { a4: pageSize.toLowerCase() === "a4" })),
    };
  }

  /** The events so far: on the clock, one per step reached (and the phase follows); else those of its phase. */
  function events(shipment: PplFakeShipment) {
    let steps: [string, string, string][];
    let stepMs = 3_600_000;
    if (options.clock && shipment.onClock) {
      stepMs = options.clock.stepMinutes * 60_000;
      const way = PARCELSHOP_PRODUCTS.includes(shipment.productType) ? PARCELSHOP_WAY : WAY;
      const all = way.flatMap((phase) => STEPS[phase]!);
      steps = all.slice(0, Math.min(all.length, Math.floor((now() - shipment.createdAt) / stepMs) + 1));
      shipment.phase = steps.at(-1)![0];
    } else {
      const phases = PATHS[shipment.phase] ?? ["Order", shipment.phase];
      steps = phases.flatMap((phase) => STEPS[phase] ?? [[phase, "999", `Event of phase ${phase}.`]]);
    }
    return steps.map(([phase, code, name], i) => ({
      statusId: Number(code),
      code,
      phase,
      group: phase,
      eventDate: new Date(shipment.createdAt + i * stepMs).toISOString().replace(/\.\d{3}Z$/, "+00:00"),
      name,
    }));
  }

  function shipmentModel(shipment: PplFakeShipment): Json {
    const template = fixture<Json[]>("tracking.response.json")[0]!;
    return {
      ...template,
      shipmentNumber: shipment.shipmentNumber,
      productType: shipment.productType,
      shipmentSet:
        shipment.setSize > 1
          ? {
              masterShipmentNumber: shipment.master,
              shipmentsInSet: shipment.setSize,
              shipmentInSetNumber: shipment.setIndex,
            }
          : null,
      externalNumbers: [{ code: "CUST", externalNumber: shipment.customerReference }],
      trackAndTrace: { ...(template.trackAndTrace as Json), events: events(shipment) },
    };
  }

  /** The query parameter `name` (ASP.NET binds them case-insensitively). */
  const param = (query: Record<string, string[]>, name: string): string[] =>
    Object.entries(query).flatMap(([key, values]) => (key.toLowerCase() === name.toLowerCase() ? values : []));

  function answer(request: PplFakeRequest): Answer | Promise<Answer> {
    const { method, path: route, query } = request;
    if (method === "POST" && route === "/login/getAccessToken") {
      const form = request.body as Record<string, string>;
      if (
        mode === "auth" ||
        form.grant_type !== "client_credentials" ||
        form.scope !== "myapi2" ||
        form.client_id !== options.clientId ||
        form.client_secret !== options.clientSecret
      )
        return { status: 401, type: "application/json", body: fixtureText("get-access-token-refused.response.json") };
      const token = `fake-ppl-token-${nextToken++}-${randomUUID()}`;
      validTokens.add(token);
      state.tokensIssued += 1;
      return json(200, { ...fixture<Json>("get-access-token.response.json"), access_token: token });
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!bearer || !validTokens.has(bearer))
      return {
        ...problem(401, "Unauthorized", "The access token is missing, invalid or expired."),
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
      };

    if (method === "GET" && route === "/accessPoint") return accessPoints.accessPoints((name) => param(query, name));
    if (method === "GET" && route === "/codelist/country") return accessPoints.countries();
    if (method === "POST" && route === "/shipment/batch") return createBatch((request.body ?? {}) as Json);
    const batchMatch = /^\/shipment\/batch\/([^/]+)(\/label)?$/.exec(route);
    if (batchMatch) {
      const batch = batches.get(decodeURIComponent(batchMatch[1]!));
      if (!batch) return problem(404, "Not Found", "No such batch.");
      if (method === "PUT" && !batchMatch[2]) {
        const invalid = openApiErrorsOf("updateShipmentBatch", request.body);
        if (invalid) return validationProblem(invalid, route);
        const settings = (request.body as Json).labelSettings as Batch["labelSettings"];
        batch.labelSettings = settings;
        return { status: 204 };
      }
      if (method === "GET" && !batchMatch[2]) return readBatch(batch);
      if (method === "GET") {
        const limit = Number(param(query, "limit")[0]);
        const offset = Number(param(query, "offset")[0]);
        if (!(limit >= 1 && limit <= 200) || !(offset >= 0))
          return problem(400, "One or more validation errors occurred.", undefined, {
            limit: ["limit (1..200) and offset are required."],
          });
        const all = batch.items
          .flatMap((i) => (i.state === "Complete" ? i.numbers : []))
          .sort((a, b) => a.localeCompare(b));
        return labelFile(batch, all.slice(offset, offset + limit), param(query, "PageSize")[0] ?? "Default");
      }
    }
    const dataMatch = /^\/data\/([^/]+)$/.exec(route);
    if (method === "GET" && dataMatch) {
      const number = labelData.get(dataMatch[1]!);
      const shipment = number ? shipments.get(number) : undefined;
      const batch = shipment ? batches.get(shipment.batchId) : undefined;
      if (!number || !batch) return problem(404, "Not Found", "No such label.");
      return labelFile(batch, [number], "Default");
    }
    if (method === "GET" && route === "/shipment") {
      const limit = Number(param(query, "Limit")[0]);
      const offset = Number(param(query, "Offset")[0]);
      if (!(limit >= 1 && limit <= 1000) || !(offset >= 0))
        return problem(400, "One or more validation errors occurred.", undefined, {
          Limit: ["Limit (1..1000) and Offset are required."],
        });
      const numbers = param(query, "ShipmentNumbers");
      const references = param(query, "CustomerReferences");
      if (numbers.length > 50 || references.length > 50)
        return problem(400, "One or more validation errors occurred.", undefined, {
          ShipmentNumbers: ["At most 50 items."],
        });
      const found = [...shipments.values()].filter(
        (s) =>
          (numbers.length === 0 || numbers.includes(s.shipmentNumber)) &&
          (references.length === 0 || references.includes(s.customerReference)),
      );
      return json(200, found.slice(offset, offset + limit).map(shipmentModel), {
        "x-total-count": String(found.length),
      });
    }
    const cancelMatch = /^\/shipment\/([^/]+)\/cancel$/.exec(route);
    if (method === "POST" && cancelMatch) {
      const shipment = shipments.get(decodeURIComponent(cancelMatch[1]!));
      if (!shipment) return problem(400, "Bad Request", "Shipment not found.");
      if (mode === "cancel-unavailable")
        return problem(503, "Service Unavailable", "The service is temporarily unavailable.");
      if (mode === "cancel-not-allowed")
        return { status: 400, type: "application/problem+json", body: fixtureText("cancel-not-allowed.response.json") };
      // PPL documents 200 or a 400 problem for a cancel (no 409), also for a shipment already cancelled.
      if (shipment.phase === "Canceled") return problem(400, "Bad Request", "The shipment is already cancelled.");
      // Cancelling a set's first parcel cancels the set.
      for (const s of shipments.values())
        if (s.master === shipment.master || s === shipment) Object.assign(s, { phase: "Canceled", onClock: false });
      return { status: 200 };
    }
    return problem(404, "Not Found", `No route ${method} ${route}.`);
  }

  /**
   * The control endpoints (option `control`): `POST /__fake/fault` with `{ "fault": "ok" | "late" | "cut" | "hang" |
   * "in-process", "lateMs"? }` (`ok` ends any fault, releases the batches `in-process` held and drops hung connections), `GET /__fake/ledger`: every
   * shipment the fake registered, with its phase (`Canceled` once cancelled); `GET /__fake/next-registration`: answers
   * once the next batch has been registered and its 201 sent (`registered: false` after 20 s), so a suite can kill the
   * caller between PPL's answer and its commit.
   */
  function control(method: string, pathname: string, body: unknown): Answer | Promise<Answer> {
    if (method === "GET" && pathname === "/__fake/next-registration")
      return new Promise<Answer>((resolve) => {
        const timer = setTimeout(() => {
          registrationWaiters = registrationWaiters.filter((w) => w !== done);
          resolve(json(200, { registered: false }));
        }, 20_000);
        const done = () => {
          clearTimeout(timer);
          resolve(json(200, { registered: true }));
        };
        registrationWaiters.push(done);
      });
    if (method === "GET" && pathname === "/__fake/ledger")
      return json(200, {
        shipments: [...shipments.values()].map((s) => ({
          shipmentNumber: s.shipmentNumber,
          referenceId: s.referenceId,
          customerReference: s.customerReference,
          master: s.master,
          phase: s.phase,
        })),
      });
    if (method === "POST" && pathname === "/__fake/fault") {
      const { fault, lateMs } = (body ?? {}) as { fault?: string; lateMs?: number };
      createFault = { kind: "none", lateMs: 0 };
      holdNewBatches = false;
      for (const b of batches.values()) b.held = false;
      if (mode === "hang") {
        mode = "ok";
        for (const r of hanging) r.destroy();
        hanging.clear();
      }
      if (fault === "late" || fault === "cut") createFault = { kind: fault, lateMs: Number(lateMs ?? 0) };
      else if (fault === "hang") mode = "hang";
      else if (fault === "in-process") holdNewBatches = true;
      else if (fault !== "ok") return problem(400, "Bad Request", `Unknown fault ${String(fault)}.`);
      return { status: 204 };
    }
    return problem(404, "Not Found", `No control route ${method} ${pathname}.`);
  }

  function parseBody(raw: string, contentType: string): unknown {
    if (raw === "") return null;
    if (contentType.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw));
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }

  function send(res: ServerResponse, result: Answer) {
    const headers: Record<string, string> = { ...(result.headers ?? {}) };
    if (result.type) headers["content-type"] = result.type;
    const write = () => {
      if (result.cutAfter === undefined) return void res.writeHead(result.status, headers).end(result.body ?? "");
      res.writeHead(result.status, headers);
      res.write(Buffer.from(result.body ?? "").subarray(0, result.cutAfter), () => res.socket?.destroy());
    };
    if (result.delayMs) setTimeout(write, result.delayMs);
    else write();
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const parsed = new URL(req.url ?? "/", "http://127.0.0.1");
      const query: Record<string, string[]> = {};
      for (const [key, value] of parsed.searchParams) (query[key] ??= []).push(value);
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]),
      );
      const route = parsed.pathname.startsWith(BASE_PATH) ? parsed.pathname.slice(BASE_PATH.length) : parsed.pathname;
      const request: PplFakeRequest = {
        method: req.method ?? "GET",
        path: route,
        query,
        headers,
        body: parseBody(raw, headers["content-type"] ?? ""),
        raw,
      };
      if (options.control && parsed.pathname.startsWith("/__fake/")) {
        void Promise.resolve(control(request.method, parsed.pathname, request.body)).then((a) => send(res, a));
        return;
      }
      requests.push(request);
      if (mode === "hang") {
        hanging.add(res);
        return;
      }
      inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      const registering = request.method === "POST" && route === "/shipment/batch";
      const fault = registering ? createFault.kind : "none";
      const respond = () => {
        inFlight -= 1;
        if (mode === "5xx") send(res, problem(503, "Service Unavailable", "The service is temporarily unavailable."));
        else {
          // Registered either way (late: the caller has usually given up by now; cut: it sees a reset).
          const finish = (result: Answer) => {
            if (fault === "cut") res.socket?.destroy();
            else send(res, result);
            if (registering && result.status === 201) {
              const waiters = registrationWaiters;
              registrationWaiters = [];
              for (const w of waiters) w();
            }
          };
          // Registrations answer at once (held ones in arrival order); only a label is drawn asynchronously.
          const result = answer(request);
          if (result instanceof Promise) void result.then(finish);
          else finish(result);
        }
      };
      if (registering && holdCreates) heldCreates.push(respond);
      else setTimeout(respond, fault === "late" ? createFault.lateMs : delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;

  return {
    /** What `COURIER_PPL_URL` (or `COURIER_PPL_TEST_URL`) is set to. */
    url,
    requests,
    state,
    setMode: (m: PplFakeMode) => (mode = m),
    setDelay: (ms: number) => (delayMs = ms),
    setPendingPolls: (n: number) => (pendingPolls = n),
    /** Batch registrations from now on are held (not registered, not answered) until `releaseCreates()`. */
    holdCreates: () => (holdCreates = true),
    /** Registers and answers every held batch registration, in arrival order, and stops holding new ones. */
    releaseCreates: () => {
      holdCreates = false;
      const held = heldCreates;
      heldCreates = [];
      for (const respond of held) respond();
    },
    setNumbering: (n: PplFakeNumbering) => (numbering = n),
    /** Every token issued so far stops working: the next API call answers 401. */
    expireTokens: () => validTokens.clear(),
    /** The phase tracking reports for a shipment (default `Order`); any text, so unknown phases can be served. */
    setPhase: (shipmentNumber: string, phase: string) => {
      const shipment = shipments.get(shipmentNumber);
      if (!shipment) throw new Error(`The fake PPL knows no shipment ${shipmentNumber}.`);
      shipment.phase = phase;
      shipment.onClock = false;
    },
    shipment: (shipmentNumber: string): PplFakeShipment | undefined => shipments.get(shipmentNumber),
    /** Every shipment registered under a reference (`referenceId`), cancelled or not. */
    shipmentsOfReference: (referenceId: string): PplFakeShipment[] =>
      [...shipments.values()].filter((s) => s.referenceId === referenceId),
    /** Drops the connections held by `hang` (the caller sees the connection reset). */
    releaseHanging: () => {
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    /** The access-point directory's faults and changes (`GET /accessPoint`). */
    accessPoints: { setFault: accessPoints.setFault, setTransform: accessPoints.setTransform },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakePpl = Awaited<ReturnType<typeof startFakePpl>>;
