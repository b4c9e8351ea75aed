import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { AccessToken, AccessTokenRequest } from "../components";
import {
  bodyErrors,
  content,
  jsonResponse,
  malformedJson,
  problemExample,
  problemResponse,
  serverErrors,
  signInThrottled,
  stringHeader,
  wwwAuthenticate,
} from "../responses";
import { noSecurity } from "../security";

export function registerAuth(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api/v2/auth/token",
    operationId: "issueAccessToken",
    tags: ["Authentication"],
    summary: "Get an access token",
    description:
      "Exchanges a dashboard user's email and password for a bearer access token of the private API (`/api/v2/private/...`). " +
      "The token expires after `expiresIn` seconds; ask for a new one then. Users are created in the dashboard or with " +
      "`npm run admin -- user:create --email E --password P --account NAME`.",
    security: noSecurity,
    request: {
      body: {
        required: true,
        content: content(AccessTokenRequest, {
          credentials: {
            summary: "Email and password",
            value: { email: "owner@example.com", password: "correct horse battery" },
          },
        }),
      },
    },
    responses: {
      200: jsonResponse(
        "The access token.",
        AccessToken,
        {
          token: {
            summary: "A one-hour token",
            value: {
              accessToken:
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMTg3OWUwYS0wZTk3LTQ0MTgtOWI3OS0wYzk4NDdhNWUxMTMiLCJpc3MiOiJzaGlwcGluZy1vcmRlci1wbGF0Zm9ybSIsImF1ZCI6InByaXZhdGUtYXBpIn0.tZBnRohgBzDKM-_63clKJMC66JbhQGW_AIHJaz1RIXU",
              tokenType: "Bearer",
              expiresIn: 3600,
            },
          },
        },
        { "Cache-Control": stringHeader("The token is a secret: never cached.", "no-store") },
      ),
      400: problemResponse("The body is not JSON, or `email` or `password` is missing.", {
        malformed: malformedJson,
        missing: problemExample(
          "Password missing",
          "bad_request",
          "password: Invalid input: expected string, received undefined",
          [{ field: "password", message: "Invalid input: expected string, received undefined" }],
        ),
      }),
      401: problemResponse(
        "The email or password is wrong.",
        { wrong: problemExample("Wrong credentials", "unauthorized", "The email or password is wrong.") },
        wwwAuthenticate("Bearer"),
      ),
      ...bodyErrors("application/json"),
      429: signInThrottled,
      ...serverErrors(),
    },
  });
}
