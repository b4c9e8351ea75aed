import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";

/**
 * The header the app's own HTTP server (server/http/app-server.ts) sets on every request to the client's address:
 * any copy a client sends is removed first, so a value here was always set by that server.
 */
export const CLIENT_ADDRESS_HEADER = "x-sop-client-address";

/** Decides whether an address is one of the operator's proxies (TRUSTED_PROXIES, compiled by proxy-addr). */
export type TrustProxy = (address: string, hop: number) => boolean;

/** TRUSTED_PROXIES entries (addresses, CIDR ranges, proxy-addr's names) as a trust function; throws on a bad one. */
export const trustProxies = (ranges: readonly string[]): TrustProxy => proxyaddr.compile([...ranges]);

/**
 * The address of the client of a request the app's server received: the TCP peer, or, while that peer is one of the
 * operator's proxies, the `X-Forwarded-For` entry that proxy appended, walked from the right. The first address that
 * is not a trusted proxy is the client: entries further left are whatever the client wrote and never count, and a
 * request that reaches the server directly is its peer, whatever it says about itself. Null when the socket has no
 * address (already closed) or a trusted proxy forwarded something that is not an address.
 */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string | null {
  const address: unknown = proxyaddr(req, trust);
  return typeof address === "string" ? canonicalAddress(address) : null;
}

/** One spelling per address (IPv4-mapped IPv6 as IPv4, IPv6 compressed), or null if it is not an address. */
export function canonicalAddress(value: string): string | null {
  if (!ipaddr.isValid(value)) return null;
  return ipaddr.process(value).toString();
}

/**
 * The client's address as the app's server determined it (for per-address limits and the audit log). Only the
 * server's own header counts: `X-Forwarded-For` is never read here. Null when the request did not come through
 * that server (a bare `next start` or `next dev`); per-address limits then count it as an unknown address.
 */
export function clientAddress(headers: Pick<Headers, "get">): string | null {
  const value = headers.get(CLIENT_ADDRESS_HEADER);
  return value ? canonicalAddress(value) : null;
}
