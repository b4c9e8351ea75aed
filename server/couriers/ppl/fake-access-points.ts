import type { DirectoryPoint } from "@/server/pickup-points/directory-point";
import { syntheticPoints } from "@/server/pickup-points/synthetic";
import { openApiErrorsOf } from "./fake-openapi";

/*
 * The fake PPL's `GET /accessPoint` and `GET /codelist/country` (pickup-points.md B.2, B.7, Part C), over the synthetic
 * PPL directory: `Limit` (1..1000) and `Offset` (≥ 0) required, else PPL's 400 problem naming them; the filters
 * `AccessPointCode`, `CountryCode`, `AccessPointTypes` (repeated key, PPL's enum, else 400), the `X-Paging-*`
 * headers; each item an `AccessPointModel` (`additionalProperties: false`, checked against PPL's own schema in the
 * tests), `weekDay` 1 = Sunday, `gps` null for a few, sizes in millimetres. PPL has no closed status: a point that
 * does not accept parcels is simply not listed.
 */

export type AccessPointFault =
  | { kind: "none" }
  /** The page that holds item `after` is cut off mid-JSON. */
  | { kind: "malformed"; after: number }
  /** The connection is destroyed half-way through the page that holds item `after`. */
  | { kind: "cut"; after: number }
  | { kind: "500" }
  /** Each answer waits `delayMs` more. */
  | { kind: "slow"; delayMs: number };

export type AccessPointAnswer = {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
  /** Send this many bytes of the body, then destroy the connection. */
  cutAfter?: number;
  delayMs?: number;
};

const TYPES: Record<string, string> = { parcelshop: "ParcelShop", parcelbox: "ParcelBox", alzabox: "AlzaBox" };
const ENUM = ["None", "ParcelShop", "ParcelBox", "AlzaBox"];
/** PPL's country code list as its plugin reads it: code, name, and whether cash on delivery is collected. */
const COUNTRIES = [
  ["CZ", "Česká republika", true],
  ["SK", "Slovensko", true],
  ["PL", "Polsko", true],
  ["HU", "Maďarsko", true],
  ["DE", "Německo", false],
  ["AT", "Rakousko", false],
].map(([code, name, cashOnDelivery]) => ({ code, name, cashOnDelivery }));

const numeric = (id: string) => Number(id.replace(/\D/g, "")) || 0;
const seconds = (hhmm: string) => `${hhmm}:00`;

/** A synthetic point as PPL's `AccessPointModel`. */
export function accessPointModel(point: DirectoryPoint): Record<string, unknown> {
  const perDay = new Map<number, number>();
  const box = point.type === "LOCKER";
  const size = point.maxSizeCm;
  return {
    accessPointCode: point.id,
    accessPointType: TYPES[point.network] ?? "ParcelShop",
    name: point.name,
    name2: null,
    street: point.street,
    city: point.city,
    country: point.country,
    zipCode: point.zip.replace(/\s/g, ""),
    phone: box ? null : "+420 600 000 000",
    email: null,
    tribalServicePoint: false,
    activeCardPayment: point.cod && point.cardPayment,
    activeCashPayment: point.cod,
    pickupEnabled: true,
    dimensionForced: box,
    workHours: point.openingHours.map((h) => {
      const dayPart = perDay.get(h.day) ?? 0;
      perDay.set(h.day, dayPart + 1);
      return {
        weekDay: h.day === 7 ? 1 : h.day + 1,
        dayPart: Math.min(dayPart, 1),
        openFrom: seconds(h.from),
        openTo: seconds(h.to),
      };
    }),
    accessPointNote: null,
    gps: numeric(point.id) % 97 === 0 ? null : { latitude: point.latitude, longitude: point.longitude },
    capacitySettings: size
      ? [
          {
            size: "S",
            capacity: 10,
            length: size.length * 10,
            height: Math.round(size.height * 2.5),
            width: size.width * 10,
          },
          { size: "M", capacity: 6, length: size.length * 10, height: size.height * 10, width: size.width * 10 },
        ]
      : null,
  };
}

export function createAccessPointDirectory(options: { count?: number; seed?: number } = {}) {
  let fault: AccessPointFault = { kind: "none" };
  let transform: (point: DirectoryPoint) => DirectoryPoint | null = (p) => p;
  let listed: DirectoryPoint[] | undefined;
  // Built on first use and kept (PPL's directory is tens of thousands of points; the pages are served from it).
  const directory = () =>
    (listed ??= [...syntheticPoints({ courier: "ppl", count: options.count, seed: options.seed })]
      .map(transform)
      .filter((p): p is DirectoryPoint => p !== null && p.open));

  const problem = (errors: Record<string, string[]>) => ({
    status: 400,
    type: "application/problem+json",
    body: JSON.stringify({
      type: "https://tools.ietf.org/html/rfc7231#section-6.5.1",
      title: "One or more validation errors occurred.",
      status: 400,
      detail: null,
      instance: "/accessPoint",
      errors,
    }),
  });

  function integer(values: string[], name: string, min: number, max: number, errors: Record<string, string[]>) {
    if (values.length === 0) {
      errors[name] = [`The ${name} field is required.`];
      return 0;
    }
    const value = Number(values[0]);
    if (!/^\d+$/.test(values[0]!) || value < min || value > max)
      errors[name] = [`The field ${name} must be between ${min} and ${max}.`];
    return value;
  }

  return {
    setFault: (next: AccessPointFault) => void (fault = next),
    /** Serves the directory changed (or points left out) from now on; `null` restores it. */
    setTransform: (next: ((point: DirectoryPoint) => DirectoryPoint | null) | null) => {
      transform = next ?? ((p) => p);
      listed = undefined;
    },
    /** `GET /accessPoint`; `param(name)` reads a query parameter case-insensitively, as ASP.NET binds them. */
    accessPoints(param: (name: string) => string[]): AccessPointAnswer {
      const errors: Record<string, string[]> = {};
      const limit = integer(param("Limit"), "Limit", 1, 1000, errors);
      const offset = integer(param("Offset"), "Offset", 0, 2 ** 31 - 1, errors);
      const types = param("AccessPointTypes");
      const unknown = types.filter((t) => !ENUM.includes(t));
      if (unknown.length > 0) errors.AccessPointTypes = [`The value '${unknown[0]}' is not valid.`];
      if (Object.keys(errors).length > 0) return problem(errors);
      if (fault.kind === "500")
        return {
          status: 500,
          type: "application/problem+json",
          body: JSON.stringify({ type: "https://httpstatuses.io/500", title: "Internal Server Error", status: 500 }),
        };
      const code = param("AccessPointCode")[0];
      const country = param("CountryCode")[0]?.toUpperCase();
      const matching = directory().filter(
        (p) =>
          (code === undefined || p.id === code) &&
          (country === undefined || p.country === country) &&
          (types.length === 0 || types.includes(TYPES[p.network] ?? "None")),
      );
      const page = matching.slice(offset, offset + limit).map(accessPointModel);
      const body = JSON.stringify(page);
      const answer: AccessPointAnswer = {
        status: 200,
        type: "application/json; charset=utf-8",
        body,
        headers: {
          "x-paging-total-items-count": String(matching.length),
          "x-paging-offset": String(offset),
          "x-paging-limit": String(limit),
        },
      };
      const hit =
        (fault.kind === "malformed" || fault.kind === "cut") && fault.after >= offset && fault.after < offset + limit;
      if (hit && fault.kind === "malformed") answer.body = body.slice(0, Math.floor(body.length / 2));
      if (hit && fault.kind === "cut") answer.cutAfter = Math.floor(body.length / 2);
      if (fault.kind === "slow") answer.delayMs = fault.delayMs;
      return answer;
    },
    countries: (): AccessPointAnswer => ({ status: 200, type: "application/json", body: JSON.stringify(COUNTRIES) }),
  };
}

/** PPL's own schema's errors for one served item (the tests hold the fake to it), or null. */
export const accessPointSchemaErrors = (item: unknown) => openApiErrorsOf("accessPoint", item);
