import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address";

const headers = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("the client's address", () => {
  it("is the last X-Forwarded-For entry with no proxy of ours in front (what the app's own server saw)", () => {
    expect(clientAddress(headers("203.0.113.9, 198.51.100.7"), 0)).toBe("198.51.100.7");
    expect(clientAddress(headers("198.51.100.7"), 0)).toBe("198.51.100.7");
  });

  it("is the entry before the operator's TRUSTED_PROXY_HOPS proxies", () => {
    expect(clientAddress(headers("203.0.113.9, 198.51.100.7, 10.0.0.2"), 1)).toBe("198.51.100.7");
    expect(clientAddress(headers("forged, 198.51.100.7, 10.0.0.2, 10.0.0.3"), 2)).toBe("198.51.100.7");
  });

  it("never takes an entry the client wrote, however many it sends", () => {
    const forged = Array.from({ length: 20 }, (_, i) => `203.0.113.${i}`).join(", ");
    expect(clientAddress(headers(`${forged}, 198.51.100.7`), 0)).toBe("198.51.100.7");
  });

  it("uses the first entry when there are fewer than the hops (a misconfiguration, never a fresh bucket per request)", () => {
    expect(clientAddress(headers("198.51.100.7"), 3)).toBe("198.51.100.7");
  });

  it("reads IPv4-mapped IPv6 as IPv4, and is null when absent or not an address", () => {
    expect(clientAddress(headers("::ffff:198.51.100.7"), 0)).toBe("198.51.100.7");
    expect(clientAddress(headers("2001:db8::1"), 0)).toBe("2001:db8::1");
    expect(clientAddress(headers(), 0)).toBeNull();
    expect(clientAddress(headers("203.0.113.1, not-an-ip"), 0)).toBeNull();
  });
});
