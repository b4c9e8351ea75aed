import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

/** What every log line of a request (or of a job it enqueued) carries. */
export type RequestContext = {
  requestId: string;
  /** The REST operation id or the tRPC procedures. */
  operation?: string;
  accountId?: string;
  /** A dashboard or private-API user (who may belong to several accounts). */
  userId?: string;
};

const storage = new AsyncLocalStorage<RequestContext>();

export const currentRequest = (): RequestContext | undefined => storage.getStore();

export const runInRequest = <T>(context: RequestContext, fn: () => T): T => storage.run(context, fn);

/** Called once the caller is known (API key or access token), so the request's end line names it. */
export function setRequestCaller(caller: { accountId?: string; userId?: string }): void {
  const context = storage.getStore();
  if (context) Object.assign(context, caller);
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's `X-Request-Id` when it is 1..128 safe characters (quoted to support as is), else a new one. */
export function requestIdOf(headers: Pick<Headers, "get">): string {
  const given = headers.get("x-request-id");
  return given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}
