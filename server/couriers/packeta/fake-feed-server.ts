import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { DirectoryPoint } from "@/server/pickup-points/directory-point";
import { syntheticPoints } from "@/server/pickup-points/synthetic";

/*
 * A fake of Packeta's v5 pickup-point feeds (`pickup-point.api.packeta.com`), strict to the documented shapes
 * (pickup-points.md A.3–A.5, A.10, Part C): `GET /v5/{key}/branch.json`, `box.json`, `carrier.json` and the
 * `/branch/json` spelling Packeta's own plugins use, `?lang=` two letters. Every scalar is a string, empty texts are
 * `{}`, hour ranges alternate the en-dash and the hyphen, `exceptions` takes its three documented shapes, a closed
 * point has a `statusId` other than 1. The directory is the synthetic one (`syntheticPoints`), written to the answer
 * as it is generated: 100,000 points are never in memory. Packeta does not document the answer to a wrong key (A.2.1
 * [UNK]); its validate endpoint answers 401 to one, so this fake does too, with a JSON error body.
 */

export type PacketaFeedFault =
  /** Normal answers. */
  | { kind: "none" }
  /** The array stops being JSON after `after` entries. */
  | { kind: "malformed"; after: number }
  /** The connection is destroyed after `after` entries. */
  | { kind: "cut"; after: number }
  /** 500 to every feed request. */
  | { kind: "500" }
  /** Each 64 KiB of the answer waits `delayMs`. */
  | { kind: "slow"; delayMs: number };

export type FakePacketaFeedOptions = {
  apiKey: string;
  /** Points in the synthetic directory (branches and boxes together); default the demo's size. */
  count?: number;
  seed?: number;
  port?: number;
  /** 127.0.0.1 unless given. */
  host?: string;
};

/** A change to the served directory: the point as served, or null to leave it out of its feed. */
export type PointTransform = (point: DirectoryPoint) => DirectoryPoint | null;

const CURRENCY: Record<string, string> = { CZ: "CZK", SK: "EUR", PL: "PLN", HU: "HUF", DE: "EUR", AT: "EUR" };
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const STATUS_CLOSED = [
  { statusId: "2", description: "Temporarily does not receive packets (exceeded capacity)" },
  { statusId: "3", description: "Temporarily closed (holiday)" },
  { statusId: "4", description: "Temporarily does not receive packets (technical reasons)" },
  { statusId: "5", description: "The branch has ended cooperation" },
];

const numeric = (id: string) => Number(id.replace(/\D/g, "")) || 0;

/** A point's regular hours in Packeta's range representation, en-dash or hyphen by the point's id. */
function regularHours(point: DirectoryPoint): Record<string, string> {
  const dash = numeric(point.id) % 2 === 0 ? "–" : "-";
  return Object.fromEntries(
    DAYS.map((day, i) => [
      day,
      point.openingHours
        .filter((h) => h.day === i + 1)
        .map((h) => `${h.from}${dash}${h.to}`)
        .join(", "),
    ]),
  );
}

/** The three documented shapes of `exceptions` (A.3): `{}`, an array, `{ exception: [...] }`. */
function exceptions(point: DirectoryPoint): unknown {
  switch (numeric(point.id) % 3) {
    case 0:
      return {};
    case 1:
      return [{ date: "2026-12-24" }, { date: "2026-12-31", hours: "09:00–12:00" }];
    default:
      return { exception: [{ date: "2026-12-24" }] };
  }
}

/** One entry of `branch.json` (a `POINT`) or `box.json` (a `LOCKER`), every scalar a string. */
export function packetaFeedEntry(point: DirectoryPoint): Record<string, unknown> {
  const n = numeric(point.id);
  const box = point.type === "LOCKER";
  const place = box
    ? point.network === "alzabox"
      ? "AlzaBox"
      : "Z-BOX"
    : (/\(([^)]+)\)$/.exec(point.name)?.[1] ?? "");
  const entry: Record<string, unknown> = {
    id: point.id,
    ...(box ? { type: point.network } : {}),
    name: point.name,
    ...(n % 5 === 0 && !box ? { special: "vchod ze dvora" } : {}),
    place,
    street: point.street,
    city: point.city,
    zip: point.zip,
    country: point.country.toLowerCase(),
    currency: CURRENCY[point.country] ?? "EUR",
    status: point.open ? { statusId: "1", description: "In operation" } : STATUS_CLOSED[n % STATUS_CLOSED.length],
    ...(box ? { codAllowed: point.cod ? "1" : "0" } : {}),
    displayFrontend: "1",
    ...(point.open ? {} : { exportedUntil: "2030-01-31", enterableUntil: "2030-01-20", openUntil: "2030-01-31" }),
    directions: n % 4 === 0 ? "<p>Vchod z ulice.</p>" : {},
    directionsCar: {},
    directionsPublic: {},
    wheelchairAccessible: n % 2 === 0 ? "yes" : "no",
    creditCardPayment: point.cardPayment ? "yes" : "no",
    dressingRoom: "0",
    claimAssistant: box ? "0" : "1",
    packetConsignment: "1",
    latitude: point.latitude.toFixed(5),
    longitude: point.longitude.toFixed(5),
    url: `https://example.invalid/pobocky/${point.id}`,
    maxWeight: String(point.maxWeightKg ?? 0),
    ...(box ? { hasKeypad: point.network === "zbox" ? "1" : "0" } : {}),
    labelRouting: `X${String(n % 100).padStart(2, "0")}-000-${String(n % 1000).padStart(3, "0")}`,
    photos: [],
    openingHours: { regular: regularHours(point), exceptions: exceptions(point) },
  };
  return entry;
}

/** Packeta's carriers (`carrier.json`): a fixed few, every value a string, booleans "true"/"false". */
export const FAKE_CARRIERS = [
  ["106", "CZ Zásilkovna HD", "cz", "CZK", false, true, false, false, true, false, false, "30"],
  ["131", "SK Packeta HD", "sk", "EUR", false, true, false, false, true, false, false, "30"],
  ["4017", "DE Hermes HD", "de", "EUR", false, true, true, false, true, true, false, "31"],
  ["3060", "PL InPost Paczkomaty Box", "pl", "PLN", true, true, false, false, true, true, false, "25"],
  ["4159", "HU GLS HD", "hu", "HUF", false, true, true, true, true, false, true, "40"],
  ["13", "AT Post HD", "at", "EUR", false, true, true, false, false, true, false, "31.5"],
].map(
  ([
    id,
    name,
    country,
    currency,
    pickupPoints,
    apiAllowed,
    separateHouseNumber,
    requiresEmail,
    requiresPhone,
    requiresSize,
    disallowsCod,
    maxWeight,
  ]) => ({
    id,
    name,
    available: "true",
    pickupPoints: String(pickupPoints),
    apiAllowed: String(apiAllowed),
    separateHouseNumber: String(separateHouseNumber),
    customsDeclarations: "false",
    requiresEmail: String(requiresEmail),
    requiresPhone: String(requiresPhone),
    requiresSize: String(requiresSize),
    disallowsCod: String(disallowsCod),
    country,
    currency,
    maxWeight,
  }),
);

const FEED_PATH = /^\/v5\/([^/]+)\/(branch|box|carrier|carrier_point)[./]json$/;

export async function startFakePacketaFeed(options: FakePacketaFeedOptions) {
  let fault: PacketaFeedFault = { kind: "none" };
  let transform: PointTransform = (p) => p;
  const requests: { path: string; status: number }[] = [];

  async function stream(res: ServerResponse, kind: string) {
    const entries: Iterable<unknown> =
      kind === "carrier"
        ? FAKE_CARRIERS
        : kind === "carrier_point"
          ? []
          : (function* () {
              for (const generated of syntheticPoints({
                courier: "packeta",
                count: options.count,
                seed: options.seed,
              })) {
                const point = transform(generated);
                if (point && (point.type === "LOCKER") === (kind === "box")) yield packetaFeedEntry(point);
              }
            })();
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    let buffer = "[";
    let written = 0;
    const flush = async () => {
      if (fault.kind === "slow")
        await new Promise((resolve) => setTimeout(resolve, fault.kind === "slow" ? fault.delayMs : 0));
      if (!res.write(buffer)) await once(res, "drain");
      buffer = "";
    };
    for (const entry of entries) {
      if ((fault.kind === "malformed" || fault.kind === "cut") && written === fault.after) {
        await flush();
        if (fault.kind === "cut") {
          res.socket?.destroy();
          return;
        }
        res.end(`${written > 0 ? "," : ""}{"id": "1", "name": "broken`);
        return;
      }
      buffer += (written > 0 ? "," : "") + JSON.stringify(entry);
      written += 1;
      if (buffer.length >= 65_536) await flush();
    }
    buffer += "]";
    await flush();
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = FEED_PATH.exec(url.pathname);
    const refuse = (status: number, body: unknown) => {
      requests.push({ path: url.pathname.replace(/^\/v5\/[^/]+/, "/v5/{key}"), status });
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.method !== "GET" || !match) return refuse(404, { error: "Not found" });
    const lang = url.searchParams.get("lang");
    if (lang !== null && !/^[a-z]{2}$/.test(lang)) return refuse(400, { error: "lang must be an ISO 639-1 code" });
    if (match[1] !== options.apiKey) return refuse(401, { error: "Invalid API key" });
    if (fault.kind === "500") return refuse(500, { error: "Internal Server Error" });
    requests.push({ path: url.pathname.replace(/^\/v5\/[^/]+/, "/v5/{key}"), status: 200 });
    stream(res, match[2]!).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** What `PACKETA_FEED_URL` is set to. */
    url,
    /** Requests served, the key replaced by `{key}`. */
    requests,
    setFault: (next: PacketaFeedFault) => void (fault = next),
    /** Serves the directory changed (or points left out) from now on; `null` restores it. */
    setTransform: (next: PointTransform | null) => void (transform = next ?? ((p) => p)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakePacketaFeed = Awaited<ReturnType<typeof startFakePacketaFeed>>;
