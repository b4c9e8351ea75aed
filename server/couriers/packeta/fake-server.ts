import { rgb } from "pdf-lib";
import { fakeLabelPdf, type FakeLabel } from "../fake-label";
import { dateToLocalTime } from "../zoned-time";
import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { asArray, attributeFaultsOf, buildXml, parsePacketaXml, type AttributeFault } from "./client";
import { wsdlFaultsOf } from "./fake-wsdl";

/** One request the fake received: the operation and its parsed body. */
export type PacketaRequest = { operation: string; body: Record<string, unknown>; xml: string };

/**
 * How the fake answers: normally; refusing every packet (`createPacket`: a `PacketAttributesFault`; `createPackets`:
 * a fault inside each packet's result); refusing a whole `createPackets` call with a `PacketAttributesFault`
 * ("refuse-call"); HTTP 503; never; or refusing a cancel.
 */
export type PacketaMode = "ok" | "refuse" | "refuse-call" | "5xx" | "hang" | "cancel-not-allowed";

/** Which packets the fake refuses in any mode: the attribute fault for a packet's attributes, or null to register it. */
export type PacketRefusal = (attributes: Record<string, unknown>) => AttributeFault | null;

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8").trim();

/** The attribute fault the fake refuses packets with: the one of the `PacketAttributesFault` fixture. */
const REFUSAL: AttributeFault = attributeFaultsOf(
  (parsePacketaXml(fixture("packet-attributes-fault.response.xml")) as { response: { detail: unknown } }).response
    .detail,
)[0]!;

/** The fault of `refuseByReference`: at `number` (the reference that triggers it), saying it is the fake's test trigger. */
const REFERENCE_TRIGGER: AttributeFault = {
  name: "number",
  fault:
    "test trigger: the local fake Packeta refuses packets whose number (the order's reference) starts with REFUSE.",
};

/**
 * The default refusal rule: a packet whose `number` (the order's reference) starts with `REFUSE` is refused, so a
 * test, the e2e suite or the bench can mix refused and accepted orders in one batch without reaching into the fake.
 */
export const refuseByReference: PacketRefusal = (attributes) =>
  String(attributes.number ?? "").startsWith("REFUSE") ? REFERENCE_TRIGGER : null;

/**
 * The way of a packet on the fake's clock, in Packeta's status codes: data received, arrived at the depot, departed,
 * then ready at the pickup point and delivered (collected); a home delivery (sent with a `street`) goes to the
 * partner carrier instead of a pickup point.
 */
const PICKUP_POINT_WAY = [1, 2, 4, 5, 7];
const HOME_WAY = [1, 2, 4, 6, 7];

/** Moves packets one status every `stepMinutes` (from their registration), read from `now` (default: the real clock). */
export type FakeCourierClock = { stepMinutes: number; now?: () => Date };

/** Packeta's packet status codes: `codeText` (Packeta's, as in its WooCommerce plugin) and a `statusText` of the fake's. */
const STATUS_TEXTS: Record<number, [codeText: string, statusText: string]> = {
  1: ["received data", "Packet data received."],
  2: ["arrived", "Packet arrived at the depot."],
  3: ["prepared for departure", "Packet is prepared for departure from the depot."],
  4: ["departed", "Packet departed from the depot."],
  5: ["ready for pickup", "Packet is ready for pickup at the pickup point."],
  6: ["handed to carrier", "Packet was handed over to the partner carrier."],
  7: ["delivered", "Packet was delivered."],
  9: ["posted back", "Packet was posted back to the sender."],
  10: ["returned", "Packet was returned to the sender."],
  11: ["cancelled", "Packet was cancelled."],
  12: ["collected", "Packet was collected."],
  14: ["customs", "Packet is in customs clearance."],
  15: ["reverse packet arrived", "Reverse packet arrived."],
  16: ["delivery attempt", "Delivery attempt; the courier will try again."],
  17: ["rejected by recipient", "Packet was rejected by the recipient."],
  999: ["unknown", "Unknown status."],
};
/** Days a packet waits at the pickup point (status 5), for `storedUntil`. */
const STORED_DAYS = 7;

/** Packeta's barcode text: `Z` and the id grouped as Packeta prints it. */
const barcodeTextOf = (id: string) => `Z ${id.slice(0, 3)} ${id.slice(3, 7)} ${id.slice(7)}`;

/** Packeta's red, the colour of its label header. */
const PACKETA_RED = rgb(0.73, 0.08, 0.06);

/** A packet's label as Packeta lays it out: its barcode, the sender (the e-shop), recipient, destination, COD. */
const packetLabel = (id: string, a: Record<string, unknown>): FakeLabel => {
  const text = (key: string) => (a[key] === undefined || a[key] === "" ? "" : String(a[key]));
  const home = text("street") !== "";
  return {
    courier: "Packeta",
    brand: PACKETA_RED,
    service: home ? `Home delivery (carrier ${text("addressId")})` : `Pickup point ${text("addressId")}`,
    barcode: `Z${id}`,
    barcodeText: barcodeTextOf(id),
    sender: [`E-shop: ${text("eshop") || "(none)"}`],
    recipient: [
      [text("name"), text("surname")].filter(Boolean).join(" ") || "(no name)",
      ...[text("company"), [text("street"), text("houseNumber")].filter(Boolean).join(" ")].filter(Boolean),
      [text("zip"), text("city")].filter(Boolean).join(" "),
      ...[text("phone"), text("email")].filter(Boolean),
    ].filter(Boolean),
    details: [
      `Order ${text("number")}`,
      `Weight ${text("weight") || "?"} kg`,
      `Value ${text("value")} ${text("currency")}`,
    ],
    cod: text("cod") && Number(text("cod")) > 0 ? `${text("cod")} ${text("currency")}` : null,
  };
};

/** xsd:dateTime as Packeta writes it: Prague wall-clock time, to the second, without a zone. */
const xsdDateTime = (at: Date) => dateToLocalTime(at, "Europe/Prague");

const fault = (name: string, text: string) => buildXml({ response: { status: "fault", fault: name, string: text } });
const attributesFault = (faults: AttributeFault | AttributeFault[]) =>
  buildXml({
    response: {
      status: "fault",
      fault: "PacketAttributesFault",
      string: "Packet attributes are not valid.",
      detail: { attributes: { fault: faults } },
    },
  });

/**
 * A fake of Packeta's REST API on 127.0.0.1, built from its specification (WSDL) and answering in its shapes (see
 * `fixtures/`): tests, the e2e set-up and the bench point `COURIER_PACKETA_URL` at it (in-process, or as its own
 * process through `fake-server-main.ts`). It records every request, counts the calls in flight, and can be told to
 * refuse, fail, hang or answer slowly (`delayMs`). Packet ids count up from `firstId` (4012345678 answers
 * the fixtures' ids).
 */
export async function startFakePacketa(options: {
  password: string;
  delayMs?: number;
  port?: number;
  /**
   * The first packet id (default: a random block, so fakes of parallel test files, which share one database, never
   * hand out the same barcode; the fixtures' tests pass 4012345678).
   */
  firstId?: number;
  /**
   * For `npm run dev`: each packet moves one step of its way (`PICKUP_POINT_WAY`, `HOME_WAY`) every `stepMinutes`, as
   * the sandbox does. Without it a packet keeps status 1 until `setStatus` or a cancel (what the tests expect).
   */
  clock?: FakeCourierClock;
}) {
  let mode: PacketaMode = "ok";
  let delayMs = options.delayMs ?? 0;
  let refusal: PacketRefusal = refuseByReference;
  let nextId = options.firstId ?? 4_100_000_000 + Math.floor(Math.random() * 800_000) * 1000;
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const requests: PacketaRequest[] = [];
  /** Every packet the fake knows: its attributes (for `packetStatus`'s branch) and its current status. */
  type Packet = { attributes: Record<string, unknown>; code: number; at: Date; onClock: boolean };
  const packets = new Map<string, Packet>();
  const now = () => options.clock?.now?.() ?? new Date();
  /** A packet as it stands now: on the clock, the step of its way that has been reached. */
  const current = (packet: Packet): Packet => {
    if (!options.clock || !packet.onClock) return packet;
    const way = packet.attributes.street ? HOME_WAY : PICKUP_POINT_WAY;
    const stepMs = options.clock.stepMinutes * 60_000;
    const step = Math.max(0, Math.min(way.length - 1, Math.floor((now().getTime() - packet.at.getTime()) / stepMs)));
    return { ...packet, code: way[step]!, at: new Date(packet.at.getTime() + step * stepMs) };
  };
  const hanging = new Set<ServerResponse>();

  const ok = (result: string) => `<response><status>ok</status><result>${result}</result></response>`;
  /** Registers a packet: `PacketIdDetail` (id, barcode `Z` + id, barcodeText grouped as Packeta prints it). */
  const register = (attributes: Record<string, unknown>) => {
    const id = String(nextId++);
    packets.set(id, { attributes, code: 1, at: now(), onClock: true });
    return { id, barcode: `Z${id}`, barcodeText: barcodeTextOf(id) };
  };
  /**
   * Why a packet is refused: first what the WSDL refuses (every attribute at fault), then the mode and the refusal
   * rule (one fault); null to register it.
   */
  const refusalOf = (attributes: Record<string, unknown>): AttributeFault[] | null => {
    const faults = wsdlFaultsOf(attributes);
    if (faults.length) return faults;
    const refused = mode === "refuse" ? REFUSAL : refusal(attributes);
    return refused ? [refused] : null;
  };

  /** `CurrentStatusRecord` of a packet (the WSDL's order of elements; nil elements empty). */
  const statusRecord = (id: string) => {
    const packet = current(packets.get(id)!);
    const [codeText, statusText] = STATUS_TEXTS[packet.code] ?? STATUS_TEXTS[999]!;
    const branch = String(packet.attributes.addressId ?? "0");
    return buildXml({
      response: {
        status: "ok",
        result: {
          dateTime: xsdDateTime(packet.at),
          statusCode: packet.code,
          codeText,
          statusText,
          branchId: branch,
          destinationBranchId: branch,
          externalTrackingCode: "",
          isReturning: [9, 10, 15].includes(packet.code),
          storedUntil:
            packet.code === 5
              ? new Date(packet.at.getTime() + STORED_DAYS * 86_400_000).toISOString().slice(0, 10)
              : "",
          carrierId: "",
          carrierName: "",
        },
      },
    });
  };

  /** Operations this fake answers as unknown (an API that lacks them), for tests of fallbacks. */
  const unknownOperations = new Set<string>();
  const answer = async (operation: string, body: Record<string, unknown>): Promise<string> => {
    if (body.apiPassword !== options.password) return fixture("incorrect-api-password.response.xml");
    if (unknownOperations.has(operation)) return fault("UnknownOperationFault", "Unknown operation.");
    switch (operation) {
      case "createPacket": {
        const attributes = (body.packetAttributes ?? {}) as Record<string, unknown>;
        const refused = refusalOf(attributes) ?? (mode === "refuse-call" ? [REFUSAL] : null);
        if (refused) return attributesFault(refused);
        const created = register(attributes);
        return fixture("create-packet.response.xml")
          .replace("<id>4012345678</id>", `<id>${created.id}</id>`)
          .replace("<barcode>Z4012345678</barcode>", `<barcode>${created.barcode}</barcode>`)
          .replace("<barcodeText>Z 401 2345 678</barcodeText>", `<barcodeText>${created.barcodeText}</barcodeText>`);
      }
      case "createPackets": {
        // `PacketsAttributes`: one `attributes` element per packet. With `transaction` false (what the adapter
        // sends) each packet is registered or refused on its own, answered as `CreatePacketsResults`.
        const all = asArray((body.packets as { attributes?: unknown } | undefined)?.attributes) as Record<
          string,
          unknown
        >[];
        if (all.length === 0)
          return attributesFault({ name: "packets", fault: "At least one packet's attributes are required." });
        if (mode === "refuse-call") return attributesFault(REFUSAL);
        // `transaction` true: all or nothing, so one refused packet refuses the call.
        if (String(body.transaction) === "true") {
          const first = all.map(refusalOf).find((r) => r !== null);
          if (first) return attributesFault(first);
        }
        const packet = all.map((attributes) => {
          const refused = refusalOf(attributes);
          if (refused)
            return {
              createdPacket: "",
              fault: "PacketAttributesFault",
              packetAttributesFault: { attributes: { fault: refused } },
            };
          return { createdPacket: register(attributes), fault: "" };
        });
        return buildXml({ response: { status: "ok", result: { packet } } });
      }
      case "cancelPacket":
        if (mode === "cancel-not-allowed")
          return fault("CancelNotAllowedFault", "The packet cannot be cancelled any more.");
        if (!packets.has(String(body.packetId))) return fault("PacketIdFault", "Unknown packet.");
        packets.set(String(body.packetId), {
          ...packets.get(String(body.packetId))!,
          code: 11,
          at: now(),
          onClock: false,
        });
        return ok("");
      case "packetStatus":
        if (!packets.has(String(body.packetId))) return fault("PacketIdFault", "Unknown packet.");
        return statusRecord(String(body.packetId));
      case "packetLabelPdf":
      case "packetsLabelsPdf": {
        const ids =
          operation === "packetLabelPdf"
            ? [String(body.packetId)]
            : asArray((body.packetIds as { id?: string | string[] } | undefined)?.id).map(String);
        // `A6 on A6`: one A6 page per packet; `A6 on A4`: four labels per A4 sheet.
        const pdf = await fakeLabelPdf(
          ids.map((id) => packetLabel(id, packets.get(id)?.attributes ?? {})),
          { a4: String(body.format) === "A6 on A4" },
        );
        return ok(Buffer.from(pdf).toString("base64"));
      }
      case "packetLabelZpl":
        return ok(`^XA^FDPacket ${String(body.packetId)} at ${String(body.dpi)} dpi^FS^XZ`);
      case "senderGetReturnRouting":
        return ok("<routingSegment>Z 123</routingSegment><routingSegment>4321</routingSegment>");
      default:
        return fault("UnknownOperationFault", "Unknown operation.");
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const xml = Buffer.concat(chunks).toString("utf8");
      const parsed = parsePacketaXml(xml) as Record<string, Record<string, unknown>>;
      const operation = Object.keys(parsed)[0] ?? "";
      const body = parsed[operation] ?? {};
      requests.push({ operation, body, xml });
      if (mode === "hang") {
        hanging.add(res);
        return;
      }
      inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        if (mode === "5xx") res.writeHead(503).end("Service Unavailable");
        else
          void answer(operation, body).then((xml) =>
            res.writeHead(200, { "content-type": "application/xml" }).end(xml),
          );
      }, delayMs);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/rest`,
    requests,
    state,
    setMode: (m: PacketaMode) => (mode = m),
    setDelay: (ms: number) => (delayMs = ms),
    setUnknownOperations: (operations: string[]) => {
      unknownOperations.clear();
      for (const o of operations) unknownOperations.add(o);
    },
    /** Which packets to refuse (in every mode but "refuse", which refuses all); no rule: `refuseByReference`. */
    setRefusal: (rule?: PacketRefusal) => (refusal = rule ?? refuseByReference),
    /** Moves a packet to a Packeta status code (at `at`, default now); an unknown id becomes a known packet. */
    setStatus: (packetId: string, code: number, at: Date = new Date()) =>
      packets.set(packetId, { attributes: packets.get(packetId)?.attributes ?? {}, code, at, onClock: false }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
