import type { TRPCError } from "@trpc/server";
import { AppError } from "@/server/errors";

/**
 * The HTTP headers of a dashboard call's answer that its errors call for: `Retry-After` (seconds) when a call was
 * refused for its rate limit, the longest wait of a batch, as the REST door sends it.
 */
export function trpcResponseMeta({ errors }: { errors: readonly TRPCError[] }): { headers?: Record<string, string> } {
  const waits = errors
    .map((e) => (e.cause instanceof AppError ? e.cause.details.retryAfterSeconds : undefined))
    .filter((s): s is number => typeof s === "number");
  return waits.length > 0 ? { headers: { "retry-after": String(Math.max(...waits)) } } : {};
}
