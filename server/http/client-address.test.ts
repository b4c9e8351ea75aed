import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loopbackPeer, requestFrom } from "@/test/front-server";
import { CLIENT_ADDRESS_HEADER, clientAddress, trustProxies } from "./client-address";
import { withClientAddress } from "./with-client-address";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * The front of the app's server on a real socket, in front of a handler that answers with the client-address header
 * it was handed (`-` when there is none): what every route of the app then reads.
 */
async function front(trustedProxies: string[]) {
  const server = createServer(
    withClientAddress(trustProxies(trustedProxies), (req, res) => {
      res.end(String(req.headers[CLIENT_ADDRESS_HEADER] ?? "-"));
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return async (peer: string, headers: Record<string, string | string[]> = {}) =>
    (await requestFrom(port, peer, { headers })).text;
}

describe("the client's address, as the app's server sets it", () => {
  it("is the TCP peer when the peer is no trusted proxy, whatever the request says about itself", async () => {
    const peer = loopbackPeer();
    const seenBy = await front([]);
    expect(await seenBy(peer)).toBe(peer);
    expect(await seenBy(peer, { "x-forwarded-for": "198.51.100.7" })).toBe(peer);
    expect(await seenBy(peer, { "x-forwarded-for": `203.0.113.9, ${peer}` })).toBe(peer);
    expect(await seenBy(peer, { [CLIENT_ADDRESS_HEADER]: "198.51.100.7" })).toBe(peer);
    // A proxy of someone else's (not in TRUSTED_PROXIES) counts as the client, not the address it forwards.
    const trustingOther = await front(["10.0.0.0/8"]);
    expect(await trustingOther(peer, { "x-forwarded-for": "198.51.100.7" })).toBe(peer);
  });

  it("behind trusted proxies, is the right-most X-Forwarded-For hop that is not one of them (IPv4 and IPv6 ranges)", async () => {
    const proxy = loopbackPeer();
    const seenBy = await front([`${proxy}/32`, "10.0.0.0/8", "fd00::/8"]);
    expect(await seenBy(proxy, { "x-forwarded-for": "198.51.100.7" })).toBe("198.51.100.7");
    // Left of the client's entry is what the client wrote: never taken, however it looks.
    expect(await seenBy(proxy, { "x-forwarded-for": "203.0.113.9, 10.9.9.9, 198.51.100.7" })).toBe("198.51.100.7");
    // Each trusted hop is walked over, IPv4 or IPv6; the first one that is not trusted is the client.
    expect(await seenBy(proxy, { "x-forwarded-for": "203.0.113.9, 198.51.100.7, 10.1.2.3, fd00::3" })).toBe(
      "198.51.100.7",
    );
    expect(await seenBy(proxy, { "x-forwarded-for": "2001:db8::1:5, fd12::1" })).toBe("2001:db8::1:5");
    // Two X-Forwarded-For headers read as one list, as a proxy that adds its own line means them.
    expect(await seenBy(proxy, { "x-forwarded-for": ["203.0.113.9", "198.51.100.8"] })).toBe("198.51.100.8");
    // The proxy's own address when it forwards nothing (a health check of the load balancer's own).
    expect(await seenBy(proxy)).toBe(proxy);
    // A client's own copy of the header never passes, through a proxy either.
    expect(await seenBy(proxy, { "x-forwarded-for": "198.51.100.7", [CLIENT_ADDRESS_HEADER]: "192.0.2.1" })).toBe(
      "198.51.100.7",
    );
  });

  it("has one spelling per address, and is absent when a trusted proxy forwards something that is not one", async () => {
    const proxy = loopbackPeer();
    const seenBy = await front([proxy]);
    expect(await seenBy(proxy, { "x-forwarded-for": "::ffff:198.51.100.7" })).toBe("198.51.100.7");
    expect(await seenBy(proxy, { "x-forwarded-for": "2001:DB8:0:0::0:1" })).toBe("2001:db8::1");
    expect(await seenBy(proxy, { "x-forwarded-for": "unknown" })).toBe("-");
  });

  it("is read by the app only from the server's header, never from X-Forwarded-For", () => {
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "198.51.100.7" }))).toBe("198.51.100.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "198.51.100.7" }))).toBeNull();
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "not-an-address" }))).toBeNull();
    expect(clientAddress(new Headers())).toBeNull();
  });

  it("takes TRUSTED_PROXIES entries as addresses and CIDR ranges, and refuses anything else", () => {
    expect(trustProxies(["10.0.0.0/8", "fd00::/8", "192.0.2.7", "loopback"])("10.2.3.4", 0)).toBe(true);
    expect(trustProxies(["10.0.0.0/8"])("11.0.0.1", 0)).toBe(false);
    expect(() => trustProxies(["10.0.0.0/33"])).toThrow();
    expect(() => trustProxies(["proxy.example"])).toThrow();
  });
});
