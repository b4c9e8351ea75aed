import NextAuth from "next-auth";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import * as keys from "@/app/api/v2/private/api-keys/route";
import * as token from "@/app/api/v2/auth/token/route";
import { getDb } from "@/db/client";
import { env } from "@/server/env";
import { setUserPassword } from "@/server/services/accounts/set-user-password";
import { call, createTestUser, readJson } from "@/test/helpers";
import { authOptions } from "./next-auth";

// Production behind https: PUBLIC_URL says so, whatever next-auth's own NEXTAUTH_URL (unset here) would default to.
process.env.PUBLIC_URL = "https://ship.example";
delete process.env.NEXTAUTH_URL;

type SetCookie = { name: string; value: string; secure: boolean; cleared: boolean };
type Answer = { status: number; body: unknown; cookies: SetCookie[] };

const parseSetCookie = (line: string): SetCookie => {
  const [pair, ...attributes] = line.split(";").map((p) => p.trim());
  const [name, ...value] = pair!.split("=");
  const attr = attributes.map((a) => a.toLowerCase());
  const expires = attr.find((a) => a.startsWith("expires="));
  return {
    name: name!,
    value: decodeURIComponent(value.join("=")),
    secure: attr.includes("secure"),
    cleared: attr.includes("max-age=0") || (expires !== undefined && Date.parse(expires.slice(8)) <= Date.now()),
  };
};

/** next-auth's own handler (what /api/auth/* runs, its Node request/response form), with a browser's cookie jar. */
function browser() {
  const jar = new Map<string, string>();
  const handle = async (method: "GET" | "POST", path: string[], body?: Record<string, string>): Promise<Answer> => {
    const headers = new Map<string, string | string[]>();
    const answer: Answer = { status: 200, body: undefined, cookies: [] };
    const res = {
      status: (code: number) => ((answer.status = code), res),
      setHeader: (name: string, value: string | string[]) => (headers.set(name.toLowerCase(), value), res),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
      json: (value: unknown) => void (answer.body = value),
      send: (value: unknown) => void (answer.body = value),
      end: () => undefined,
    };
    const req = {
      method,
      query: { nextauth: path },
      headers: { host: "ship.example", "content-type": "application/x-www-form-urlencoded" },
      cookies: Object.fromEntries(jar),
      body: body ?? {},
    };
    await (NextAuth as unknown as (q: unknown, s: unknown, o: unknown) => Promise<void>)(req, res, authOptions());
    const set = headers.get("set-cookie") ?? [];
    answer.cookies = (Array.isArray(set) ? set : [set]).map(parseSetCookie);
    for (const c of answer.cookies) {
      if (c.cleared || !c.value) jar.delete(c.name);
      else jar.set(c.name, c.value);
    }
    return answer;
  };
  return {
    jar,
    async signIn(email: string, password: string) {
      const { csrfToken } = (await handle("GET", ["csrf"])).body as { csrfToken: string };
      return handle("POST", ["callback", "credentials"], { email, password, csrfToken, json: "true" });
    },
    session: async () => (await handle("GET", ["session"])).body as { user?: { id: string } },
  };
}

const SESSION_COOKIE = "__Secure-next-auth.session-token";

describe("dashboard sessions (issue 29, item 7)", () => {
  it("set a Secure, __Secure- cookie when PUBLIC_URL is https", async () => {
    const user = await createTestUser();
    const b = browser();
    const answer = await b.signIn(user.email, user.password);
    const cookie = answer.cookies?.find((c) => c.name.endsWith("next-auth.session-token"));
    expect(cookie?.name).toBe(SESSION_COOKIE);
    expect(cookie?.secure).toBe(true);
    expect((await b.session()).user?.id).toBe(user.userId);
  });

  it("last 12 hours from the sign-in, however often they are used", async () => {
    const user = await createTestUser();
    const now = Math.floor(Date.now() / 1000);
    const b = browser();
    // A session signed in 12 h 1 min ago and used all along (next-auth re-issued its cookie on every read).
    const stale = { sub: user.userId, email: user.email, isStaff: false, sv: 0, authAt: now - 12 * 3600 - 60 };
    b.jar.set(SESSION_COOKIE, await encode({ token: stale, secret: env().AUTH_SECRET, maxAge: 12 * 3600 }));
    expect(await b.session()).toEqual({});
    expect(b.jar.has(SESSION_COOKIE)).toBe(false);
    // One signed in 11 h 59 min ago still works, and its expiry is the sign-in's + 12 h, not a new 12 h.
    const young = { ...stale, authAt: now - 12 * 3600 + 60 };
    b.jar.set(SESSION_COOKIE, await encode({ token: young, secret: env().AUTH_SECRET, maxAge: 12 * 3600 }));
    const session = (await b.session()) as { user?: { id: string }; expires?: string };
    expect(session.user?.id).toBe(user.userId);
    expect(Date.parse(session.expires!)).toBe((young.authAt + 12 * 3600) * 1000);
  });

  it("end, with the user's access tokens, when `admin user:password` sets a new password", async () => {
    const user = await createTestUser();
    const b = browser();
    await b.signIn(user.email, user.password);
    expect((await b.session()).user?.id).toBe(user.userId);
    const issued = await readJson<{ accessToken: string }>(
      await call(token.POST, "/api/v2/auth/token", { body: { email: user.email, password: user.password } }),
    );
    const list = (bearer: string) =>
      call(keys.GET, `/api/v2/private/api-keys?accountId=${user.accountId}`, { token: bearer });
    expect((await list(issued.accessToken)).status).toBe(200);

    await setUserPassword(await getDb(), { email: user.email, password: "a-new-password-2026" });

    expect(await b.session()).toEqual({});
    expect((await list(issued.accessToken)).status).toBe(401);
    expect((await list(user.token)).status).toBe(401);
    // The new password signs in again, the old one no more.
    const again = browser();
    await again.signIn(user.email, user.password);
    expect((await again.session()).user).toBeUndefined();
    const fresh = browser();
    await fresh.signIn(user.email, "a-new-password-2026");
    expect((await fresh.session()).user?.id).toBe(user.userId);
  });
});
