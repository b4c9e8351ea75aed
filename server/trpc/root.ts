import { createCallerFactory, createTRPCRouter } from "./init";
import { accountsRouter } from "./routers/accounts";
import { apiKeysRouter } from "./routers/api-keys";
import { auditEventsRouter } from "./routers/audit-events";
import { courierProfilesRouter } from "./routers/courier-profiles";
import { overviewRouter } from "./routers/overview";
import { pickupPointsRouter } from "./routers/pickup-points";
import { refusedAttemptsRouter } from "./routers/refused-attempts";
import { shippingOrdersRouter } from "./routers/shipping-orders";
import { sourcesRouter } from "./routers/sources";
import { statisticsRouter } from "./routers/statistics";
import { validationResultsRouter } from "./routers/validation-results";
import { webhooksRouter } from "./routers/webhooks";

export const appRouter = createTRPCRouter({
  accounts: accountsRouter,
  apiKeys: apiKeysRouter,
  sources: sourcesRouter,
  courierProfiles: courierProfilesRouter,
  overview: overviewRouter,
  shippingOrders: shippingOrdersRouter,
  validationResults: validationResultsRouter,
  refusedAttempts: refusedAttemptsRouter,
  pickupPoints: pickupPointsRouter,
  auditEvents: auditEventsRouter,
  webhooks: webhooksRouter,
  statistics: statisticsRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process: server components (through `trpc/server.ts`) and tests. */
export const createCaller = createCallerFactory(appRouter);
