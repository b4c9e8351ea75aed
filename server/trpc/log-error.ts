import type { TRPCError } from "@trpc/server";
import { errorTable } from "@/server/errors";
import { logger } from "@/server/observability/logger";

// What a caller can get wrong or was refused (the expected codes of `errorTable`); anything else is the
// server's failure and is logged.
const EXPECTED = new Set<TRPCError["code"]>(
  Object.values(errorTable)
    .filter((kind) => kind.expected)
    .map((kind) => kind.trpc),
);

/**
 * Logs a procedure failure the client was shown only a generic message for, in the JSON shape of the
 * REST door's log lines. Used by the HTTP route and by the server-component caller.
 */
export function logUnexpectedError({ path, error }: { path?: string; error: TRPCError }): void {
  if (EXPECTED.has(error.code)) return;
  const cause = error.cause ?? error;
  logger.error({ procedure: path, code: error.code, err: cause.stack ?? String(cause) }, "tRPC procedure failed");
}
