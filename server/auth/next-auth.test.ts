import { randomUUID } from "node:crypto";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/client-address";
import { SIGN_IN_PER_IP_PER_MINUTE } from "@/server/services/rate-limits/throttle-sign-in";
import { authOptions } from "./next-auth";
import { SIGN_IN_RATE_LIMITED } from "@/lib/sign-in-errors";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date());
});
afterEach(() => vi.useRealTimers());

/** The dashboard's sign-in as next-auth runs it: `authorize` with the request's headers as an object. */
async function signIn(headers: Record<string, string>): Promise<"wrong" | "limited"> {
  const provider = authOptions().providers[0] as unknown as { options: CredentialsConfig };
  try {
    const user = await provider.options.authorize(
      { email: `nobody-${randomUUID()}@test.example`, password: "wrong password" },
      { headers, body: {}, query: {}, method: "POST" },
    );
    expect(user).toBeNull();
    return "wrong";
  } catch (error) {
    expect((error as Error).message).toBe(SIGN_IN_RATE_LIMITED);
    return "limited";
  }
}

describe("dashboard sign-in attempts", () => {
  it("are limited per the address the app's server set, whatever X-Forwarded-For says", async () => {
    const address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    const outcomes: string[] = [];
    for (let i = 0; i <= SIGN_IN_PER_IP_PER_MINUTE; i++)
      outcomes.push(await signIn({ [CLIENT_ADDRESS_HEADER]: address, "x-forwarded-for": `203.0.113.${i}` }));
    expect(outcomes).toEqual([...Array<string>(SIGN_IN_PER_IP_PER_MINUTE).fill("wrong"), "limited"]);
    expect(await signIn({ [CLIENT_ADDRESS_HEADER]: "198.51.100.251" })).toBe("wrong");
  }, 120_000);
});
