import { XMLBuilder, XMLParser } from "fast-xml-parser";
import { currentEnv } from "@/server/env";
import { CourierError, requestMayHaveArrived } from "../adapter";
import { courierExchange, type CourierAnswer } from "../http";

/** Packeta's REST endpoint, chosen by the operator (never a partner): read at call time. */
export const packetaUrl = (): string => currentEnv.COURIER_PACKETA_URL;

const builder = new XMLBuilder({ ignoreAttributes: true, suppressEmptyNode: true });
// Values stay strings (packet ids and barcodes are digits that must not lose leading zeros or precision).
const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true });

/** One attribute Packeta refused (`AttributeFault`: the attribute's name and Packeta's text). */
export type AttributeFault = { name: string; fault: string };

/** A Packeta fault answered inside a 200: its type, its text, and the attribute faults it names. */
export class PacketaFault extends Error {
  constructor(
    readonly fault: string,
    message: string,
    readonly attributeFaults: AttributeFault[] = [],
  ) {
    super(message);
    this.name = "PacketaFault";
  }
}

export const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** XML of a plain object (arrays become repeated elements, undefined values are left out), by fast-xml-parser. */
export const buildXml = (value: Record<string, unknown>): string => builder.build(value) as string;

/** The XML body of one call: `<operation><apiPassword>…</apiPassword>…</operation>`, built by fast-xml-parser. */
export const requestXml = (operation: string, apiPassword: string, parts: Record<string, unknown>): string =>
  buildXml({ [operation]: { apiPassword, ...parts } });

/** A parsed `PacketAttributesFault` (`attributes/fault[name, fault]`, one or many) as a list. */
export const attributeFaultsOf = (detail: unknown): AttributeFault[] => {
  const attributes = (detail as { attributes?: { fault?: unknown } } | undefined)?.attributes;
  return asArray(typeof attributes === "object" && attributes ? attributes.fault : undefined).map((f) => {
    const fault = (typeof f === "object" && f ? f : {}) as { name?: unknown; fault?: unknown };
    return { name: String(fault.name ?? ""), fault: String(fault.fault ?? "") };
  });
};

/**
 * One call of Packeta's REST API. Its answer is `<response><status>ok</status><result>…</result></response>` or a
 * fault inside a 200; HTTP errors and no answer are the courier being unavailable. The password travels in the body
 * only, and no error message ever carries it.
 */
export async function callPacketa(
  operation: string,
  apiPassword: string,
  parts: Record<string, unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  let response: CourierAnswer;
  try {
    // No redirect followed, at most 10 MiB read: the password in the body goes only to the configured URL.
    response = await courierExchange(
      "Packeta",
      packetaUrl(),
      {
        method: "POST",
        headers: { "content-type": "application/xml; charset=utf-8" },
        body: requestXml(operation, apiPassword, parts),
      },
      signal,
    );
  } catch (error) {
    // Aborted at the timeout (fetch rejects with the abort's reason, callCourier's own COURIER_TIMEOUT): sent, so
    // Packeta may have acted on it.
    if (signal.aborted && error instanceof CourierError) throw error.unknownOutcome();
    // A redirect or an oversized answer (courierExchange): Packeta answered, and nothing was acted on.
    if (error instanceof CourierError) throw error;
    // Sent but unanswered (a timeout, a connection or an answer cut while read): Packeta may have acted on it.
    const outcomeUnknown = signal.aborted || requestMayHaveArrived(error);
    if (signal.aborted)
      throw new CourierError("COURIER_TIMEOUT", "Packeta did not answer in time.", null, { outcomeUnknown });
    throw new CourierError("COURIER_UNAVAILABLE", `Packeta could not be reached (${(error as Error).name}).`, null, {
      outcomeUnknown,
    });
  }
  const text = new TextDecoder().decode(response.body);
  if (response.status < 200 || response.status >= 300)
    throw new CourierError("COURIER_UNAVAILABLE", `Packeta answered HTTP ${response.status}.`);
  const parsed = parser.parse(text) as {
    response?: {
      status?: string;
      result?: unknown;
      fault?: string;
      string?: string;
      detail?: unknown;
    };
  };
  const body = parsed.response;
  if (!body) throw new CourierError("COURIER_UNAVAILABLE", "Packeta answered something that is not its API's XML.");
  if (body.status === "ok") return body.result;
  throw new PacketaFault(
    String(body.fault ?? "UnknownFault"),
    String(body.string ?? "Packeta refused the call."),
    attributeFaultsOf(body.detail),
  );
}

export const parsePacketaXml = (xml: string): unknown => parser.parse(xml);
