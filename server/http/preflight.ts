import { randomUUID } from "node:crypto";
import type { Handle } from "./with-client-address";

/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** What every preflight answers. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, OPTIONS",
  "access-control-allow-headers": "Authorization, X-API-Key, X-Request-Id",
  "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
};

/**
 * The CORS preflight (OPTIONS) of a route that takes publishable keys, the same for every origin and read from no
 * database. The browser sends it without the key, so there is nothing to check it against: `Access-Control-Allow-Origin:
 * *` lets any page send the real request (no cookies: the widget's fetches carry none), and the real request is then
 * answered, with CORS headers, only to its own key's `allowedOrigins`. A preflight thus tells nobody which origins are
 * some shop's, costs no lookup, and one answer serves every origin (no `Vary: Origin`).
 */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
}

/** The routes that take publishable keys: the pickup-point search and one point by its id. */
const PREFLIGHTED_PATH = /^\/api\/v2\/couriers\/[^/?#]+\/pickup-points(?:\/[^/?#]+)?\/?(?:[?#].*)?$/;

/**
 * The front of the app's HTTP server answers those routes' preflights itself, before Next: the answer is a constant,
 * and through Next's routing and proxy.ts it cost a millisecond or two of the event loop each, so a flood of them from
 * one client slowed every tenant (bench/results.md §5h). The routes' own OPTIONS (the same `preflight()`) serve
 * `npm run dev`, which has no such front.
 */
export function withPreflights(next: Handle): Handle {
  return (req, res) => {
    if (req.method !== "OPTIONS" || !PREFLIGHTED_PATH.test(req.url ?? "")) return next(req, res);
    res.writeHead(204, { ...PREFLIGHT_HEADERS, "x-request-id": randomUUID() }).end();
  };
}
