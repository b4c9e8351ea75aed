import { isIP } from "node:net";
import { env } from "@/server/env";

/**
 * The client's address as the app's own server saw it, for per-address limits. The app's HTTP server appends
 * the socket's peer to `X-Forwarded-For` (patches/next+*.patch: Next alone keeps a client-sent header as it is),
 * so the last entry is always the peer; each trusted proxy of the operator's appends one more. Entries left of
 * those are the client's own words and never count: a forged header cannot move a client into a fresh limit.
 */
export function clientAddress(headers: Pick<Headers, "get">, trustedHops = env().TRUSTED_PROXY_HOPS): string | null {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) return null;
  const chosen = entries[Math.max(0, entries.length - 1 - trustedHops)]!;
  const address = chosen.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return isIP(address) ? address : null;
}
