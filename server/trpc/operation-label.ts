import { appRouter } from "./root";

/** Every procedure the router has (`shippingOrders.list`, …): the only names a label may carry. */
const PROCEDURES: ReadonlySet<string> = new Set(Object.keys(appRouter._def.procedures));

/** A batch of several procedures: one label for all of them, so that combinations cannot multiply the series. */
export const TRPC_BATCH_OPERATION = "trpc:batch";

/**
 * The `operation` of a tRPC request's log line and metrics, from its path (`/api/trpc/orders.list,orders.get`):
 * `trpc:<procedure>` when every call of it names the same existing procedure, `trpc:batch` when it names several
 * existing ones, and `unknown` for anything else. The path is the client's to choose, so no part of it reaches a
 * label unless it is one of the router's names: the label's values stay as few as the router's procedures.
 */
export function trpcOperation(pathname: string): string {
  let names: string[];
  try {
    names = decodeURIComponent(pathname.replace(/^\/api\/trpc\/?/, "")).split(",");
  } catch {
    return "unknown";
  }
  if (!names.every((name) => PROCEDURES.has(name))) return "unknown";
  return new Set(names).size === 1 ? `trpc:${names[0]}` : TRPC_BATCH_OPERATION;
}
