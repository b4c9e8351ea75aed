import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getSession } from "@/server/auth/next-auth";
import { finishRequest } from "@/server/observability/http-requests";
import {
  requestIdOf,
  runInRequest,
  setRequestCaller,
  type RequestContext,
} from "@/server/observability/request-context";
import { problem } from "@/server/http/problem";
import { isCrossSite } from "@/server/http/same-origin";
import { createTRPCContext } from "@/server/trpc/init";
import { logUnexpectedError } from "@/server/trpc/log-error";
import { trpcResponseMeta } from "@/server/trpc/response-meta";
import { appRouter } from "@/server/trpc/root";

function handler(request: Request): Promise<Response> {
  const started = performance.now();
  // The procedures of the (batched) call: `/api/trpc/orders.list,orders.get` → `orders.list,orders.get`.
  const procedures = decodeURIComponent(new URL(request.url).pathname.slice("/api/trpc/".length));
  const context: RequestContext = { requestId: requestIdOf(request.headers), operation: `trpc:${procedures}` };
  return runInRequest(context, async () => {
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: appRouter,
      createContext: async () => {
        const session = await getSession();
        if (session?.user?.id) setRequestCaller({ userId: session.user.id });
        return createTRPCContext({ session, headers: request.headers });
      },
      onError: logUnexpectedError,
      responseMeta: trpcResponseMeta,
    });
    return finishRequest(request, response, context, started);
  });
}

/** Mutations ride on the session cookie, so one posted from another site is refused before anything runs. */
async function mutation(request: Request): Promise<Response> {
  if (isCrossSite(request))
    return problem(403, "Cross-site requests to the dashboard API are refused.", { code: "forbidden" });
  return handler(request);
}

export { handler as GET, mutation as POST };
