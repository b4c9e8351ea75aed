import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { TRPC_MAX_BATCH_SIZE } from "@/lib/trpc-batch";
import { getSession } from "@/server/auth/next-auth";
import { assertStorable, malformedJson, mediaTypeOf, readText, unsupportedMediaType } from "@/server/http/body";
import { finishRequest } from "@/server/observability/http-requests";
import {
  requestIdOf,
  runInRequest,
  setRequestCaller,
  type RequestContext,
} from "@/server/observability/request-context";
import { errorResponse, problem } from "@/server/http/problem";
import { isCrossSite } from "@/server/http/same-origin";
import { createTRPCContext } from "@/server/trpc/init";
import { logUnexpectedError } from "@/server/trpc/log-error";
import { trpcOperation } from "@/server/trpc/operation-label";
import { trpcResponseMeta } from "@/server/trpc/response-meta";
import { appRouter } from "@/server/trpc/root";

/**
 * Each call's input as superjson put it on the wire (`{ json, meta }`, one per index in a batch) is checked on its
 * own first, so that a refusal names the field as the form knows it (`name`, not `0.json.name`); then the whole.
 */
function assertStorableInput(text: string, batch: boolean): void {
  let wire: unknown;
  try {
    wire = JSON.parse(text);
  } catch {
    throw malformedJson();
  }
  const calls = batch && typeof wire === "object" && wire !== null ? Object.values(wire) : [wire];
  for (const call of calls)
    if (typeof call === "object" && call !== null && "json" in call) assertStorable((call as { json: unknown }).json);
  assertStorable(wire);
}

/**
 * The input of a call, checked as the REST door checks its bodies before tRPC parses it: at most 1 MiB, read while
 * streaming (413), JSON nested at most 64 levels and holding no U+0000 or unpaired surrogate (400). A POST's body
 * is read here once and handed on; a GET carries its input in the query (bounded by the server's URL limit).
 */
async function checkedInput(request: Request): Promise<Request> {
  const search = new URL(request.url).searchParams;
  const batch = search.get("batch") === "1";
  if (request.method !== "POST") {
    const input = search.get("input");
    if (input !== null) assertStorableInput(input, batch);
    return request;
  }
  const type = mediaTypeOf(request);
  if (type !== "application/json") throw unsupportedMediaType(type, ["application/json"]);
  const text = await readText(request);
  if (text !== "") assertStorableInput(text, batch);
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  return new Request(request.url, { method: "POST", headers, body: text, signal: request.signal });
}

function handler(request: Request): Promise<Response> {
  const started = performance.now();
  const context: RequestContext = {
    requestId: requestIdOf(request.headers),
    operation: trpcOperation(new URL(request.url).pathname),
  };
  return runInRequest(context, async () => {
    let response: Response;
    try {
      // Mutations ride on the session cookie, so one posted from another site is refused before anything runs.
      if (request.method === "POST" && isCrossSite(request))
        response = problem(403, "Cross-site requests to the dashboard API are refused.", { code: "forbidden" });
      else
        response = await fetchRequestHandler({
          endpoint: "/api/trpc",
          req: await checkedInput(request),
          router: appRouter,
          maxBatchSize: TRPC_MAX_BATCH_SIZE,
          createContext: async () => {
            const session = await getSession();
            if (session?.user?.id) setRequestCaller({ userId: session.user.id });
            return createTRPCContext({ session, headers: request.headers });
          },
          onError: logUnexpectedError,
          responseMeta: trpcResponseMeta,
        });
    } catch (error) {
      response = errorResponse(error, request);
    }
    return finishRequest(request, response, context, started);
  });
}

export { handler as GET, handler as POST };
