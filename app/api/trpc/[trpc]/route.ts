import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getSession } from "@/server/auth/next-auth";
import { createTRPCContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";

const EXPECTED_FAILURES = new Set(["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE_CONTENT", "TOO_MANY_REQUESTS", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"]);

function handler(request: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: async () => createTRPCContext({ session: await getSession(), headers: request.headers }),
    onError({ path, error }) {
      // The browser saw a generic message for these; the details belong in the log.
      if (EXPECTED_FAILURES.has(error.code)) return;
      const cause = error.cause ?? error;
      console.error(JSON.stringify({ level: "error", msg: "tRPC procedure failed", path, code: error.code, error: cause.stack ?? String(cause) }));
    },
  });
}

export { handler as GET, handler as POST };
