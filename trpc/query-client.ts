import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import SuperJSON from "superjson";

/** One configuration for the server (per request) and the browser (per tab), so hydrated data matches. */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      // Data prefetched on the server is fresh enough not to be fetched again as soon as the page hydrates.
      queries: { staleTime: 30_000 },
      dehydrate: {
        serializeData: SuperJSON.serialize,
        // Pending prefetches are streamed to the browser too, so a page can render before every query finished.
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: SuperJSON.deserialize },
    },
  });
