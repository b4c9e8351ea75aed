"use client";

import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { httpBatchStreamLink, loggerLink, type TRPCClientErrorLike } from "@trpc/client";
import { createTRPCReact } from "@trpc/react-query";
import { useState } from "react";
import SuperJSON from "superjson";
import { TRPC_MAX_BATCH_SIZE } from "@/lib/trpc-batch";
import type { AppRouter } from "@/server/trpc/root";
import { createQueryClient } from "./query-client";

/** The dashboard's tRPC hooks: `api.apiKeys.list.useSuspenseQuery(...)`, `api.useUtils()`. */
export const api = createTRPCReact<AppRouter>();

export type ApiError = TRPCClientErrorLike<AppRouter>;

const isExpectedError = (error: ApiError): boolean => (error.data?.httpStatus ?? 500) < 500;

let browserQueryClient: QueryClient | undefined;

// The server renders each request with its own client; the browser keeps one, so suspending does not lose the cache.
function getQueryClient(): QueryClient {
  if (typeof window === "undefined") return createQueryClient();
  browserQueryClient ??= createQueryClient();
  return browserQueryClient;
}

export function TRPCReactProvider({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    api.createClient({
      links: [
        // Only the server's own failures: a refused form (4xx) is shown on the screen, and logging it as a console
        // error would open Next's error overlay in development for every expected mistake.
        loggerLink({
          enabled: (op) =>
            op.direction === "down" && op.result instanceof Error && !isExpectedError(op.result as ApiError),
        }),
        httpBatchStreamLink({ transformer: SuperJSON, url: "/api/trpc", maxItems: TRPC_MAX_BATCH_SIZE }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <api.Provider client={trpcClient} queryClient={queryClient}>
        {children}
      </api.Provider>
    </QueryClientProvider>
  );
}
