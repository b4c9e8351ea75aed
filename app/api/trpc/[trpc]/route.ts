import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getSession } from "@/server/auth/next-auth";
import { problem } from "@/server/http/problem";
import { isCrossSite } from "@/server/http/same-origin";
import { createTRPCContext } from "@/server/trpc/init";
import { logUnexpectedError } from "@/server/trpc/log-error";
import { appRouter } from "@/server/trpc/root";

function handler(request: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: async () => createTRPCContext({ session: await getSession(), headers: request.headers }),
    onError: logUnexpectedError,
  });
}

/** Mutations ride on the session cookie, so one posted from another site is refused before anything runs. */
async function mutation(request: Request): Promise<Response> {
  if (isCrossSite(request))
    return problem(403, "Cross-site requests to the dashboard API are refused.", { code: "forbidden" });
  return handler(request);
}

export { handler as GET, mutation as POST };
