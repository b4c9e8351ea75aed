import { Resolver as DnsResolver } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { badField } from "@/server/errors";

export type TargetPolicy = { allowPrivate: boolean };

/**
 * Resolves a host name to every address it has (`resolveHost` by default; tests pass their own). `signal` cancels
 * the queries when the attempt gives up on them.
 */
export type Resolver = (host: string, signal?: AbortSignal) => Promise<{ address: string; family: number }[]>;

/** How long one DNS query waits for a server, and how often it is sent (c-ares's own options). */
const DNS_TIMEOUT_MS = 2000;
const DNS_TRIES = 2;

/**
 * Host names are resolved by c-ares (`dns.promises.Resolver`), which queries the name servers over its own
 * sockets on the event loop, never by `dns.lookup`: that runs getaddrinfo on libuv's thread pool (4 threads,
 * shared with argon2's password hashing and file I/O), so a few receivers whose DNS hangs would stall sign-ins
 * and every other delivery's lookup. Each query has a timeout and a try count, and is cancelled when the attempt
 * gives up. c-ares does not read /etc/hosts as getaddrinfo does: `localhost` (and its subdomains, RFC 6761) is
 * loopback without asking anyone, so it is refused under production rules as before and reachable in development.
 * `servers` overrides the system's name servers (tests).
 */
export function createHostResolver({ servers }: { servers?: string[] } = {}): Resolver {
  return async (host, signal) => {
    const name = host.toLowerCase().replace(/\.$/, "");
    if (name === "localhost" || name.endsWith(".localhost"))
      return [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ];
    const resolver = new DnsResolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
    if (servers) resolver.setServers(servers);
    const cancel = () => resolver.cancel();
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      if (signal?.aborted) throw new Error("cancelled");
      // Both families, as getaddrinfo answers them: a name with only one of them is not refused for the other's
      // absence, but any answer that is not public refuses the target (checkTarget).
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
      const addresses = [
        ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (addresses.length === 0) throw v4.status === "rejected" ? v4.reason : new Error(`${name} has no address`);
      return addresses;
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
  };
}

/** The system's name servers (from /etc/resolv.conf), through c-ares. */
export const resolveHost: Resolver = createHostResolver();

/** Ports a webhook may target: the web's own and the unprivileged range (never SSH, SMTP, databases' low ports…). */
export const isAllowedPort = (port: number): boolean => port === 443 || port === 80 || (port >= 1024 && port <= 65535);

/** A webhook target after its checks: the URL, and the one address the request must connect to. */
export type CheckedTarget = { url: URL; address: string; family: 4 | 6 };

export class TargetRefused extends Error {
  /**
   * `message` is what the caller is told; `detail`, what only the operator's log may carry (the address a name
   * resolved to: telling it to the caller would map the network behind the platform one registration at a time).
   */
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = "TargetRefused";
  }
}

const MAX_URL_LENGTH = 2048;

/** Only addresses routed on the public internet; loopback, private, link-local, CGNAT, reserved are refused. */
export function isPublicAddress(address: string): boolean {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && address.includes(".")) {
    // ipaddr.js reads the dotted IPv4-compatible form (::8.8.8.8) as IPv4-mapped: judge its text instead.
    const head = ipaddr.parse(`${address.slice(0, address.lastIndexOf(":") + 1)}0:0`) as ipaddr.IPv6;
    if (head.parts.slice(0, 6).every((part) => part === 0)) return false;
  }
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    // IPv4-mapped (::ffff:a.b.c.d) is judged as the IPv4 address it carries; the deprecated IPv4-compatible
    // form (::a.b.c.d, the whole ::/96) reaches IPv4 hosts on some stacks, so it is never a public target.
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
  }
  return parsed.range() === "unicast";
}

/** The URL rules that need no DNS: scheme, credentials, length. Throws TargetRefused. */
export function parseTargetUrl(raw: string, { allowPrivate }: TargetPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw new TargetRefused(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("must be an absolute https:// URL");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    throw new TargetRefused(allowPrivate ? "must use https:// or http://" : "must use https://");
  }
  if (url.username || url.password) throw new TargetRefused("must not contain credentials");
  if (!url.hostname) throw new TargetRefused("must name a host");
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  if (!isAllowedPort(port)) throw new TargetRefused("must use port 443, 80 or 1024-65535");
  return url;
}

/**
 * Resolves the host once and checks every address it has: a target is refused if any of them is not public
 * (unless private targets are allowed). The caller connects to the returned address only, so a second DNS
 * answer cannot point the request somewhere else (DNS rebinding).
 */
export async function checkTarget(
  raw: string,
  policy: TargetPolicy,
  resolve: Resolver = resolveHost,
  signal?: AbortSignal,
): Promise<CheckedTarget> {
  const url = parseTargetUrl(raw, policy);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host, signal);
    } catch {
      throw new TargetRefused(`host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`host ${host} does not resolve`);
  if (!policy.allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw new TargetRefused(
        "must resolve to public addresses only",
        `${host} resolves to ${refused.address}, which is not a public address`,
      );
  }
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** The same checks for a request body: a refusal is a 400 naming `url`. */
export async function assertTargetAllowed(raw: string, policy: TargetPolicy): Promise<string> {
  try {
    return (await checkTarget(raw, policy)).url.toString();
  } catch (error) {
    if (error instanceof TargetRefused) throw badField("url", error.message);
    throw error;
  }
}
