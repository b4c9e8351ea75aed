import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { signAccessToken } from "@/server/auth/access-tokens";
import { call, createTestUser, readJson, type TestUser } from "@/test/helpers";
import * as keys from "../../private/api-keys/route";
import * as token from "./route";

describe("POST /auth/token and private-API authentication", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser();
  });

  it("issues a bearer token that opens the private API", async () => {
    const response = await call(token.POST, "/api/v2/auth/token", {
      body: { email: user.email, password: user.password },
    });
    expect(response.status).toBe(200);
    const body = await readJson<{ accessToken: string; tokenType: string; expiresIn: number }>(response);
    expect(body.tokenType).toBe("Bearer");
    expect(body.expiresIn).toBeGreaterThan(0);
    const list = await call(keys.GET, `/api/v2/private/api-keys?accountId=${user.accountId}`, {
      token: body.accessToken,
    });
    expect(list.status).toBe(200);
  });

  it("matches the email case-insensitively", async () => {
    const response = await call(token.POST, "/api/v2/auth/token", {
      body: { email: user.email.toUpperCase(), password: user.password },
    });
    expect(response.status).toBe(200);
  });

  it("answers 401 for a wrong password or unknown email", async () => {
    for (const body of [
      { email: user.email, password: "wrong password" },
      { email: "nobody@test.example", password: "whatever1" },
    ]) {
      const response = await call(token.POST, "/api/v2/auth/token", { body });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("answers 400 naming the field when email or password is missing", async () => {
    const response = await call(token.POST, "/api/v2/auth/token", { body: { email: user.email } });
    expect(response.status).toBe(400);
    expect((await readJson<{ errors: { field: string }[] }>(response)).errors[0]!.field).toBe("password");
  });

  it("refuses malformed JSON with 400, a wrong Content-Type with 415, a body over 1 MiB with 413", async () => {
    const malformed = await call(token.POST, "/api/v2/auth/token", {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("content-type")).toBe("application/problem+json");
    const wrongType = await call(token.POST, "/api/v2/auth/token", {
      rawBody: "email=a",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(wrongType.status).toBe(415);
    const big = JSON.stringify({ email: "a@b.c", password: "x".repeat(1024 * 1024) });
    const tooLarge = await call(token.POST, "/api/v2/auth/token", {
      rawBody: big,
      headers: { "content-type": "application/json" },
    });
    expect(tooLarge.status).toBe(413);
  });

  it("refuses missing, expired, forged tokens and API keys on the private API with 401 and WWW-Authenticate", async () => {
    const path = `/api/v2/private/api-keys?accountId=${user.accountId}`;
    const expired = await signAccessToken(user.userId, 0, -10);
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.userId)
      .setIssuer("shipping-order-platform")
      .setAudience("private-api")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("some-other-secret-some-other-secret-0000"));
    const created = await readJson<{ key: string }>(
      await call(keys.POST, "/api/v2/private/api-keys", {
        token: user.token,
        body: { accountId: user.accountId, name: "k" },
      }),
    );
    for (const [label, headers] of [
      ["missing", {}],
      ["expired", { authorization: `Bearer ${expired}` }],
      ["forged", { authorization: `Bearer ${forged}` }],
      ["garbage", { authorization: "Bearer abc.def.ghi" }],
      ["api key", { authorization: `Bearer ${created.key}` }],
    ] as const) {
      const response = await call(keys.GET, path, { headers });
      expect(response.status, label).toBe(401);
      expect(response.headers.get("www-authenticate"), label).toMatch(/^Bearer/);
    }
  });
});
