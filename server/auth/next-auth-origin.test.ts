import NextAuth from "next-auth";
import { describe, expect, it } from "vitest";
import { authOptions } from "./next-auth";

// A server started without scripts/start.ts (`tsx scripts/serve.ts`, `next start`) has no NEXTAUTH_URL of its own.
process.env.PUBLIC_URL = "https://ship.example";
delete process.env.NEXTAUTH_URL;

type Answer = { status: number; location?: string; body?: string };

/** next-auth's handler (its Node request/response form) for `/api/auth/<action>`, on a request to some other Host. */
async function nextAuth(action: "signout" | "signin"): Promise<Answer> {
  const answer: Answer = { status: 200 };
  const res = {
    status: (code: number) => ((answer.status = code), res),
    setHeader: (name: string, value: string) => {
      if (name.toLowerCase() === "location") answer.location = value;
      return res;
    },
    getHeader: () => undefined,
    redirect: (status: number, url: string) => void Object.assign(answer, { status, location: url }),
    json: (value: unknown) => void (answer.body = JSON.stringify(value)),
    send: (value: string) => void (answer.body = value),
    end: () => undefined,
  };
  const req = { method: "GET", query: { nextauth: [action] }, headers: { host: "attacker.example" }, cookies: {} };
  await (NextAuth as unknown as (q: unknown, s: unknown, o: unknown) => Promise<void>)(req, res, authOptions());
  return answer;
}

describe("next-auth's origin", () => {
  it("is PUBLIC_URL however the server was started: its sign-out form and redirects point there", async () => {
    const signOut = await nextAuth("signout");
    expect(signOut.body).toContain('action="https://ship.example/api/auth/signout"');
    expect(signOut.body).not.toContain("localhost:3000");
    const signIn = new URL((await nextAuth("signin")).location!, "http://relative.invalid");
    expect(signIn.pathname).toBe("/sign-in");
    expect(signIn.searchParams.get("callbackUrl")).toBe("https://ship.example");
  });
});
