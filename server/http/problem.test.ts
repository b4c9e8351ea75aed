import { describe, expect, it } from "vitest";
import * as token from "@/app/api/v2/auth/token/route";
import * as couriers from "@/app/api/v2/couriers/route";
import * as apiKeys from "@/app/api/v2/private/api-keys/route";
import { AppError, errorTable, type AppErrorCode } from "@/server/errors";
import { call, createTestUser, readJson } from "@/test/helpers";
import { errorResponse } from "./problem";

describe("the error table", () => {
  it("gives every code the status, title and tRPC code the API has always answered with", () => {
    const answered: Record<AppErrorCode, [number, string, string]> = {
      bad_request: [400, "Bad Request", "BAD_REQUEST"],
      validation_failed: [400, "Bad Request", "BAD_REQUEST"],
      unauthorized: [401, "Unauthorized", "UNAUTHORIZED"],
      forbidden: [403, "Forbidden", "FORBIDDEN"],
      not_found: [404, "Not Found", "NOT_FOUND"],
      conflict: [409, "Conflict", "CONFLICT"],
      payload_too_large: [413, "Content Too Large", "PAYLOAD_TOO_LARGE"],
      unsupported_media_type: [415, "Unsupported Media Type", "UNSUPPORTED_MEDIA_TYPE"],
      unknown_source: [422, "Unprocessable Content", "UNPROCESSABLE_CONTENT"],
      unprocessable: [422, "Unprocessable Content", "UNPROCESSABLE_CONTENT"],
      rate_limited: [429, "Too Many Requests", "TOO_MANY_REQUESTS"],
      internal: [500, "Internal Server Error", "INTERNAL_SERVER_ERROR"],
      bad_gateway: [502, "Bad Gateway", "BAD_GATEWAY"],
      unavailable: [503, "Service Unavailable", "SERVICE_UNAVAILABLE"],
    };
    for (const [code, kind] of Object.entries(errorTable)) {
      expect([kind.status, kind.title, kind.trpc], code).toEqual(answered[code as AppErrorCode]);
      expect(kind.expected, code).toBe(kind.status < 500);
    }
  });
});

describe("errorResponse renders an AppError's details at the door", () => {
  it("a refused rate limit: RateLimit-* and Retry-After on a problem", async () => {
    const response = errorResponse(
      new AppError("rate_limited", "The API key's rate limit is exhausted: retry in 7 s.", {
        details: { retryAfterSeconds: 7, rateLimit: { limit: 60, remaining: 0, resetSeconds: 59 } },
      }),
    );
    expect(response.status).toBe(429);
    expect(Object.fromEntries(response.headers)).toEqual({
      "content-type": "application/problem+json",
      "ratelimit-limit": "60",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "59",
      "retry-after": "7",
    });
    expect(await response.json()).toEqual({
      type: "/problems/rate-limited",
      title: "Too Many Requests",
      status: 429,
      detail: "The API key's rate limit is exhausted: retry in 7 s.",
    });
  });

  it("an operation's own result: sent as JSON with the code's status", async () => {
    const result = { status: "ERROR", messages: [{ field: "Parcels", message: "is required" }] };
    const response = errorResponse(new AppError("validation_failed", "invalid", { details: { result } }));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(result);
  });

  it("a challenge: WWW-Authenticate of the realm the route belongs to", async () => {
    const withoutKey = await call(couriers.GET, "/api/v2/couriers");
    expect(withoutKey.status).toBe(401);
    expect(withoutKey.headers.get("www-authenticate")).toBe('Bearer realm="shipping-orders"');
    const withoutToken = await call(apiKeys.GET, "/api/v2/private/api-keys");
    expect(withoutToken.status).toBe(401);
    expect(withoutToken.headers.get("www-authenticate")).toBe('Bearer realm="private-api"');
    const user = await createTestUser();
    const wrongPassword = await call(token.POST, "/api/v2/auth/token", {
      body: { email: user.email, password: "not the password" },
    });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.headers.get("www-authenticate")).toBe("Bearer");
    expect(await readJson(wrongPassword)).toMatchObject({ status: 401, detail: "The email or password is wrong." });
  });

  it("field errors: listed in the problem", async () => {
    const response = errorResponse(
      new AppError("bad_request", "name: too long", { errors: [{ field: "name", message: "too long" }] }),
    );
    expect(await response.json()).toMatchObject({ status: 400, errors: [{ field: "name", message: "too long" }] });
  });
});
