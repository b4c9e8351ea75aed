import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getSession } from "@/server/auth/next-auth";
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

export { handler as GET, handler as POST };
