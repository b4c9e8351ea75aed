import "server-only";
import { createHydrationHelpers } from "@trpc/react-query/rsc";
import { headers } from "next/headers";
import { cache } from "react";
import { getSession } from "@/server/auth/next-auth";
import { createTRPCContext } from "@/server/trpc/init";
import { logUnexpectedError } from "@/server/trpc/log-error";
import { createCaller, type AppRouter } from "@/server/trpc/root";
import { createQueryClient } from "./query-client";

// One context and one query client per request: every prefetch of a page lands in the cache HydrateClient sends.
const createContext = cache(async () =>
  createTRPCContext({ session: await getSession(), headers: new Headers(await headers()) }),
);
const getQueryClient = cache(createQueryClient);

/**
 * Server components call procedures in-process: `await api.accounts.mine()` for data the server needs,
 * `void api.apiKeys.list.prefetch(input)` plus `<HydrateClient>` for data a client component reads
 * with `api.apiKeys.list.useSuspenseQuery(input)` from `@/trpc/react`.
 */
export const { trpc: api, HydrateClient } = createHydrationHelpers<AppRouter>(
  createCaller(createContext, { onError: logUnexpectedError }),
  getQueryClient,
);
