import { getDb, type Db } from "@/db/client";
import { env } from "@/server/env";
import { errorResponse } from "./problem";

/** What Next passes a dynamic route handler as its second argument. */
export type RouteContext<P extends Record<string, string> = Record<string, string>> = { params: Promise<P> };

export type HandlerArgs<P> = {
  request: Request;
  url: URL;
  params: P;
  db: Db;
  ip: string | null;
  /** Origin for absolute links in answers: PUBLIC_URL when set (behind a proxy), else the request's. */
  baseUrl: string;
};

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

export const noContent = (headers: Record<string, string> = {}): Response =>
  new Response(null, { status: 204, headers });

export function clientIp(request: Pick<Request, "headers">): string | null {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || null;
}

/** The catch-all every REST route runs in: anything thrown becomes a problem response. */
export function handler<P extends Record<string, string>>(fn: (args: HandlerArgs<P>) => Promise<Response>) {
  return async (request: Request, context?: RouteContext<P>): Promise<Response> => {
    try {
      const params = ((await context?.params) ?? {}) as P;
      const db = await getDb();
      const url = new URL(request.url);
      return await fn({ request, url, params, db, ip: clientIp(request), baseUrl: env().PUBLIC_URL ?? url.origin });
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}
