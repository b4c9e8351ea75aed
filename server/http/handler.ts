import { finishRequest } from "@/server/observability/http-requests";
import { requestIdOf, runInRequest, type RequestContext } from "@/server/observability/request-context";
import { clientAddress } from "./client-address";
import { getDb, type Db } from "@/db/client";
import { env } from "@/server/env";
import { errorResponse } from "./problem";
import { rejectUnknownQuery } from "./query";

/** What Next passes a dynamic route handler as its second argument. */
export type RouteContext<P extends Record<string, string> = Record<string, string>> = { params: Promise<P> };

export type HandlerArgs<P> = {
  request: Request;
  url: URL;
  params: P;
  db: Db;
  ip: string | null;
  /** Origin for absolute links in answers: PUBLIC_URL, never the request's `Host` or `X-Forwarded-Host`. */
  baseUrl: string;
};

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

export const noContent = (headers: Record<string, string> = {}): Response =>
  new Response(null, { status: 204, headers });

export const clientIp = (request: Pick<Request, "headers">): string | null => clientAddress(request.headers);

/**
 * What a route declares besides its handler. `query` lists every query parameter the route reads; any
 * other one answers 400 naming it, so a misspelt filter (`?referenceSourc=x`) never silently returns
 * everything. A route that declares nothing takes no query parameters at all. Every wrapper (`handler`,
 * `withApiKey`, `withAccessToken`) takes it as its last argument and checks it once the caller is known;
 * `route()` (operation.ts) passes the names of its operation's query schema.
 */
export type RouteOptions = {
  query?: readonly string[];
  /** For the request's log line and metrics. */ operationId?: string;
  /** Publishable keys may call it (pickup-point search for the checkout widget), from their origins (CORS). */
  publishable?: boolean;
};

/** Refuses the query parameters `options` does not declare (400 naming them). */
export const checkQuery = (url: URL, options: RouteOptions): void => rejectUnknownQuery(url, options.query ?? []);

/**
 * The catch-all every REST route runs in: anything thrown becomes a problem response. Each request gets its id
 * (`X-Request-Id` on the answer: the caller's when it is safe, else a new one) and, at its end, one log line and
 * its metrics. Routes use a wrapper.
 */
export function restRoute<P extends Record<string, string>>(
  fn: (args: HandlerArgs<P>) => Promise<Response>,
  operationId?: string,
) {
  return async (request: Request, context?: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const ctx: RequestContext = { requestId: requestIdOf(request.headers), operation: operationId };
    return runInRequest(ctx, async () => {
      let response: Response;
      try {
        const params = ((await context?.params) ?? {}) as P;
        const db = await getDb();
        const url = new URL(request.url);
        response = await fn({
          request,
          url,
          params,
          db,
          ip: clientIp(request),
          baseUrl: env().PUBLIC_URL,
        });
      } catch (error) {
        response = errorResponse(error, request);
      }
      return finishRequest(request, response, ctx, started);
    });
  };
}

/** A route that needs no credentials (the token endpoint, health, the OpenAPI document). */
export function handler<P extends Record<string, string>>(
  fn: (args: HandlerArgs<P>) => Promise<Response>,
  options: RouteOptions = {},
) {
  return restRoute<P>(async (args) => {
    checkQuery(args.url, options);
    return fn(args);
  }, options.operationId);
}
