import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { checkTarget, TargetRefused, type Resolver, type TargetPolicy } from "./check-target";

export type PostOutcome = {
  ok: boolean;
  /** The receiver's HTTP status; null when there was no answer. */
  status: number | null;
  durationMs: number;
  /** Why there was no usable answer (refused target, connection error, timeout). */
  error: string | null;
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
  options: TargetPolicy & { timeoutMs: number; resolve?: Resolver },
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const noAnswer = `no answer within ${options.timeoutMs} ms`;
  let target;
  // The DNS lookup counts against the attempt's timeout: a resolver that hangs must not stretch an attempt
  // past the job's expiry (which would let another worker start the same attempt).
  let lookupTimer: NodeJS.Timeout | undefined;
  try {
    target = await Promise.race([
      checkTarget(rawUrl, options, options.resolve),
      new Promise<null>((resolve) => (lookupTimer = setTimeout(() => resolve(null), options.timeoutMs))),
    ]);
  } catch (error) {
    const message = error instanceof TargetRefused ? `target refused: ${error.message}` : String(error);
    return { ok: false, status: null, durationMs: elapsed(), error: message };
  } finally {
    clearTimeout(lookupTimer);
  }
  if (!target) return { ok: false, status: null, durationMs: elapsed(), error: noAnswer };
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
      finish({ ok: false, status: null, error: noAnswer });
    }, remainingMs);
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
