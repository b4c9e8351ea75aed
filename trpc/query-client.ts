import { defaultShouldDehydrateQuery, isServer, QueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import SuperJSON from "superjson";

/**
 * A refusal (not found, forbidden, a bad filter) answers the same on every try: show it at once instead of
 * after three retries. The server never retries (TanStack's default there), so a failing prefetch does not hold up the page.
 */
function retry(failures: number, error: unknown): boolean {
  if (isServer) return false;
  const status =
    error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failures < 3;
}

/** One configuration for the server (per request) and the browser (per tab), so hydrated data matches. */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      // Data prefetched on the server is fresh enough not to be fetched again as soon as the page hydrates.
      queries: { staleTime: 30_000, retry },
      dehydrate: {
        serializeData: SuperJSON.serialize,
        // Pending prefetches are streamed to the browser too, so a page can render before every query finished.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: SuperJSON.deserialize },
    },
  });
