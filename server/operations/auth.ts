import { operation } from "@/server/http/operation";
import { AccessToken, AccessTokenRequest } from "@/server/openapi/components";
import { issueAccessTokenInput, wrongCredentials } from "@/server/services/accounts/issue-access-token";
import { signInThrottled } from "@/server/services/rate-limits/throttle-sign-in";
import { parseInput } from "@/server/validation";
import { EXHAUSTED } from "@/server/openapi/operation-config";
import { answer, jsonBody, noStore, thrown } from "./shared";

export const issueAccessTokenOp = operation({
  method: "post",
  path: "/api/v2/auth/token",
  operationId: "issueAccessToken",
  tag: "Authentication",
  summary: "Get an access token",
  description:
    "Exchanges a dashboard user's email and password for a bearer access token of the private API (`/api/v2/private/...`). " +
    "The token expires after `expiresIn` seconds; ask for a new one then. Users are created in the dashboard or with " +
    "`npm run admin -- user:create --email E --password P --account NAME`.",
  auth: "none",
  body: jsonBody(AccessTokenRequest, {
    credentials: ["Email and password", { email: "owner@example.com", password: "correct horse battery" }],
  }),
  responses: {
    200: answer(
      "The access token.",
      AccessToken,
      {
        token: [
          "A one-hour token",
          {
            accessToken:
              "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMTg3OWUwYS0wZTk3LTQ0MTgtOWI3OS0wYzk4NDdhNWUxMTMiLCJpc3MiOiJzaGlwcGluZy1vcmRlci1wbGF0Zm9ybSIsImF1ZCI6InByaXZhdGUtYXBpIn0.tZBnRohgBzDKM-_63clKJMC66JbhQGW_AIHJaz1RIXU",
            tokenType: "Bearer",
            expiresIn: 3600,
          },
        ],
      },
      noStore,
    ),
  },
  errors: {
    400: {
      examples: {
        missing: ["Password missing", thrown(() => parseInput(issueAccessTokenInput, { email: "owner@example.com" }))],
      },
    },
    401: {
      description: "The email or password is wrong.",
      examples: { wrong: ["Wrong credentials", wrongCredentials()] },
    },
    429: {
      description:
        "Too many attempts for this email (10 a minute) or from this address (60 a minute; an IPv6 address per /64). The address is the " +
        "connection's peer as the platform's own server saw it, or, behind the operator's proxies (`TRUSTED_PROXIES`), the right-most " +
        "`X-Forwarded-For` entry that is not one of them; entries the client writes never count.",
      examples: { email: ["Too many attempts", signInThrottled.email({ ...EXHAUSTED, retryAfterSeconds: 6 })] },
    },
  },
});

export const operations = [issueAccessTokenOp];
