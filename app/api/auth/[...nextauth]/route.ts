import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/server/auth/next-auth";
import { readText } from "@/server/http/body";
import { errorResponse } from "@/server/http/problem";
import { finishRequest } from "@/server/observability/http-requests";
import { requestIdOf, runInRequest, type RequestContext } from "@/server/observability/request-context";

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's actions (the first segment after /api/auth/): the only values the `operation` label takes here. */
const ACTIONS = new Set([
  "providers",
  "session",
  "csrf",
  "signin",
  "signout",
  "callback",
  "verify-request",
  "error",
  "_log",
]);

const operationOf = (pathname: string): string => {
  const action = pathname.split("/")[3] ?? "";
  return ACTIONS.has(action) ? `auth:${action}` : "unknown";
};

/**
 * next-auth reads a whole form body before it checks anything (the credentials callback needs no account), so the
 * body is read here first under the 1 MiB of every door: refused while streaming (413 problem), never buffered whole.
 */
async function bounded(request: NextRequest): Promise<NextRequest> {
  if (request.method !== "POST") return request;
  const text = await readText(request);
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  return new NextRequest(request.url, { method: "POST", headers, body: text, signal: request.signal });
}

// next-auth types its App Router handler's result as `any`; it is the route's Response.
function handler(request: NextRequest, context: Context): Promise<Response> {
  const started = performance.now();
  const ctx: RequestContext = {
    requestId: requestIdOf(request.headers),
    operation: operationOf(new URL(request.url).pathname),
  };
  return runInRequest(ctx, async () => {
    let response: Response;
    try {
      response = (await NextAuth(await bounded(request), context, authOptions())) as Response;
    } catch (error) {
      response = errorResponse(error, request);
    }
    return finishRequest(request, response, ctx, started);
  });
}

export { handler as GET, handler as POST };
