import ipaddr from "ipaddr.js";

/**
 * What a per-address limit counts under. An IPv4 address is one key; an IPv6 address counts under its /64, since one
 * subscriber or one host is routinely given a whole /64 and could otherwise take a fresh address (and a fresh limit)
 * per request. A missing or unreadable address shares the one key `unknown`: no address never means no limit.
 */
export function addressLimitKey(address: string | null): string {
  if (!address || !ipaddr.isValid(address)) return "unknown";
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
