import { describe, expect, it } from "vitest";
import { unauthenticatedPageLimiter } from "./unauthenticated-page-limit";

describe("the unauthenticated page limiter", () => {
  it("counts an IPv6 client per /64 and forgets the address seen longest ago past its size", () => {
    let now = 0;
    const take = unauthenticatedPageLimiter({ limitPerMinute: 2, maxAddresses: 2, now: () => now });
    expect([take("2001:db8::1"), take("2001:db8::2"), take("2001:db8::3")].map((s) => s.allowed)).toEqual([
      true,
      true,
      false,
    ]);
    // Two a minute: one token every 30 s.
    expect(take("2001:db8::1").retryAfterSeconds).toBe(30);
    now += 30_000;
    expect(take("2001:db8::1").allowed).toBe(true);
    // Two other addresses push the /64 out: it starts again with a full bucket.
    take("198.51.100.1");
    take("198.51.100.2");
    expect(take("2001:db8::1").allowed).toBe(true);
  });
});
