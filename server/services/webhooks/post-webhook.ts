import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { logger } from "@/server/observability/logger";
import { checkTarget, TargetRefused, type Resolver, type TargetPolicy } from "./check-target";

export type PostOutcome = {
  ok: boolean;
  /** The receiver's HTTP status; null when there was no answer. */
  status: number | null;
  durationMs: number;
  /** Why there was no usable answer (refused target, connection error, timeout). */
  error: string | null;
  /** No answer within the timeout (a receiver that hangs or is black-holed, or DNS that does not answer). */
  timedOut?: boolean;
};

/** Enough of a receiver's answer to show in the delivery log; the rest is not read. */
const MAX_RESPONSE_BYTES = 4096;

/**
 * POSTs one webhook: the target is resolved and checked once, and the connection goes to exactly that
 * address (TLS still verifies the host name). Redirects are not followed: a 3xx is a failed attempt. The
 * timeout covers connecting, sending and the answer's head; at most a few KiB of the body are read.
 */
export async function postWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: TargetPolicy & { timeoutMs: number; resolve?: Resolver; signal?: AbortSignal },
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const noAnswer = `no answer within ${options.timeoutMs} ms`;
  if (options.signal?.aborted) return { ok: false, status: null, durationMs: 0, error: "not sent: aborted" };
  let target;
  // The DNS queries count against the attempt's timeout, and are cancelled when it runs out (or the caller aborts).
  const lookup = new AbortController();
  const abortLookup = () => lookup.abort();
  options.signal?.addEventListener("abort", abortLookup, { once: true });
  let lookupTimer: NodeJS.Timeout | undefined;
  try {
    target = await Promise.race([
      checkTarget(rawUrl, options, options.resolve, lookup.signal),
      new Promise<null>((resolve) => {
        lookupTimer = setTimeout(() => resolve(null), options.timeoutMs);
        lookup.signal.addEventListener("abort", () => resolve(null), { once: true });
      }),
    ]);
  } catch (error) {
    const message = error instanceof TargetRefused ? `target refused: ${error.message}` : String(error);
    // The address a refused name resolved to is for the operator's log only; the partner's `lastError` names none.
    if (error instanceof TargetRefused && error.detail) logger.warn({ detail: error.detail }, "webhook target refused");
    return { ok: false, status: null, durationMs: elapsed(), error: message };
  } finally {
    clearTimeout(lookupTimer);
    options.signal?.removeEventListener("abort", abortLookup);
    lookup.abort();
  }
  if (!target) return { ok: false, status: null, durationMs: elapsed(), error: noAnswer, timedOut: true };
  const remainingMs = Math.max(1, options.timeoutMs - elapsed());
  const pinned: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const transport = target.url.protocol === "https:" ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = transport.request(target.url, {
      method: "POST",
      agent: false,
      lookup: pinned,
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, status: null, error: noAnswer, timedOut: true });
    }, remainingMs);
    // The caller's lease ends: the request is cut before it, so no answer can arrive after the attempt was given up.
    const abort = () => {
      request.destroy();
      finish({ ok: false, status: null, error: noAnswer, timedOut: true });
    };
    options.signal?.addEventListener("abort", abort, { once: true });
    request.on("close", () => options.signal?.removeEventListener("abort", abort));
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      const done = () => {
        response.destroy();
        finish({ ok: status >= 200 && status < 300, status, error: null });
      };
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
    });
    request.on("error", (error) => finish({ ok: false, status: null, error: error.message }));
    request.end(body);
  });
}
