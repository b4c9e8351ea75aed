import type { OpenAPIRegistry, RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { ApiKeyPermission } from "@/lib/api-key-permissions";

type Security = NonNullable<RouteConfig["security"]>;

export function registerSecuritySchemes(registry: OpenAPIRegistry): void {
  registry.registerComponent("securitySchemes", "ApiKeyBearer", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key (`svc_` and 40+ base62 characters) as `Authorization: Bearer <key>`. Created in the dashboard or with `POST /api/v2/private/api-keys`; " +
      "the full key is shown once. Missing, unknown or revoked → 401; a key lacking the operation's permission → 403.",
  });
  registry.registerComponent("securitySchemes", "ApiKeyHeader", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "The same API key as `X-API-Key: <key>`; when both headers are sent, `X-API-Key` wins.",
  });
  registry.registerComponent("securitySchemes", "AccessToken", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A dashboard user's access token from `POST /api/v2/auth/token`, valid for `expiresIn` seconds, as `Authorization: Bearer <accessToken>`. " +
      "An API key is not an access token: it gets 401 on the private API.",
  });
}

/**
 * Either header carries the key. The requirement lists the permission the key must hold (OpenAPI 3.1
 * allows role names in the array of non-OAuth schemes).
 */
export const apiKeySecurity = (permission: ApiKeyPermission): Security => [
  { ApiKeyBearer: [permission] },
  { ApiKeyHeader: [permission] },
];

export const accessTokenSecurity: Security = [{ AccessToken: [] }];

export const noSecurity: Security = [];
