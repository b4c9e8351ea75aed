import { createCallerFactory, createTRPCRouter } from "./init";
import { accountsRouter } from "./routers/accounts";
import { apiKeysRouter } from "./routers/api-keys";
import { courierProfilesRouter } from "./routers/courier-profiles";
import { sourcesRouter } from "./routers/sources";

export const appRouter = createTRPCRouter({
  accounts: accountsRouter,
  apiKeys: apiKeysRouter,
  sources: sourcesRouter,
  courierProfiles: courierProfilesRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process: server components (through `trpc/server.ts`) and tests. */
export const createCaller = createCallerFactory(appRouter);
