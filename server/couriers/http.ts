import { CourierError } from "./adapter";

/** The most of a courier's answer the platform reads (the contract: 10 MiB); a larger one is refused unread. */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export type CourierAnswer = { status: number; headers: Headers; body: Uint8Array };

/**
 * Every HTTP exchange with a courier (its API calls and its token request). Credentials go only to the configured
 * URL: no redirect is followed (`redirect: "manual"`; a 3xx is the courier being unavailable, so a cross-origin 307
 * never re-sends a password in a body or a secret in a form), and at most `MAX_ANSWER_BYTES` of the answer are read
 * (a larger one is cancelled as soon as it passes the cap, or refused at its Content-Length). Errors of the network
 * or the signal are thrown as they came, for the client to judge (timeout, unreachable).
 */
export async function courierExchange(
  courier: string,
  url: string,
  init: Omit<RequestInit, "redirect" | "signal">,
  signal: AbortSignal,
  maxBytes = MAX_ANSWER_BYTES,
): Promise<CourierAnswer> {
  const response = await fetch(url, { ...init, signal, redirect: "manual" });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    throw new CourierError(
      "COURIER_UNAVAILABLE",
      `${courier} answered a redirect (HTTP ${response.status}); the platform follows none, so nothing was sent there.`,
    );
  }
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(courier, maxBytes);
  }
  return { status: response.status, headers: response.headers, body: await readCapped(response, courier, maxBytes) };
}

const tooLarge = (courier: string, maxBytes: number) =>
  new CourierError(
    "COURIER_UNAVAILABLE",
    `${courier} answered more than ${Math.round(maxBytes / 1024 / 1024)} MiB; the answer was not read.`,
  );

async function readCapped(response: Response, courier: string, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(courier, maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
