import { operation } from "@/server/http/operation";
import {
  ApiKey,
  ApiKeyPage,
  CreateApiKeyRequest,
  CreatedApiKey,
  UpdateApiKeyRequest,
} from "@/server/openapi/components";
import {
  ACCOUNT_ID,
  API_KEY_ID,
  apiKey,
  createdApiKey,
  createdPublishableKey,
  pageOf,
} from "@/server/openapi/examples";
import { apiKeyLimitReached, MAX_ACTIVE_KEYS_PER_KIND } from "@/server/services/api-keys/create-api-key";
import { createApiKeyInput, updateApiKeyInput } from "@/server/services/api-keys/schemas";
import { API_KEY_CREATION_LIMITS } from "@/server/services/rate-limits/throttle-api-key-creation";
import { rateLimited } from "@/server/services/rate-limits/take-tokens";
import { parseInput } from "@/server/validation";
import { answer, idParams, jsonBody, noStore, pagedAccountQuery, thrown } from "./shared";

const TAG = "Private: API keys";
const keyParams = idParams("key", API_KEY_ID);
const originInvalid = [
  "An origin with a path",
  thrown(() =>
    parseInput(createApiKeyInput, {
      name: "Widget",
      kind: "publishable",
      allowedOrigins: ["https://shop.example/checkout"],
    }),
  ),
] as const;
const nameInvalid = ["Name too long", thrown(() => parseInput(createApiKeyInput, { name: "x".repeat(101) }))] as const;

export const listApiKeysOp = operation({
  method: "get",
  path: "/api/v2/private/api-keys",
  operationId: "listApiKeys",
  tag: TAG,
  summary: "List API keys",
  description:
    "The account's active (not revoked) keys, newest first, each masked as `svc_****` and its last 4 characters.",
  auth: "accessToken",
  query: pagedAccountQuery,
  responses: { 200: answer("A page of keys.", ApiKeyPage, { keys: ["One key", pageOf([apiKey])] }) },
  errors: {
    400: {
      examples: {
        pageSize: ["pageSize out of range", thrown(() => parseInput(pagedAccountQuery, { pageSize: "51" }))],
      },
    },
  },
});

export const createApiKeyOp = operation({
  method: "post",
  path: "/api/v2/private/api-keys",
  operationId: "createApiKey",
  tag: TAG,
  summary: "Create an API key",
  description:
    "Creates a key (`svc_` and 40+ random base62 characters) with every permission unless `permissions` narrows them. Only a hash is stored: " +
    "the full key is in this answer and never again.\n\n" +
    `Decision where the contract is silent: an account has at most ${MAX_ACTIVE_KEYS_PER_KIND} active secret and ` +
    `${MAX_ACTIVE_KEYS_PER_KIND} active publishable keys (revoked ones do not count; past it → 409), and keys are created at ` +
    `most ${API_KEY_CREATION_LIMITS.user.perMinute} a minute per signed-in user and ${API_KEY_CREATION_LIMITS.account.perMinute} ` +
    "a minute per account, here and in the dashboard together (429 with `Retry-After`; a refused creation counts for neither).",
  auth: "accessToken",
  body: jsonBody(CreateApiKeyRequest, {
    basic: ["A key with all permissions", { accountId: ACCOUNT_ID, name: "E-shop integration" }],
    narrowed: [
      "A read-only key with its own rate limit",
      {
        accountId: ACCOUNT_ID,
        name: "Reporting",
        permissions: ["shipping-orders:read", "labels:read"],
        rateLimitPerMinute: 120,
      },
    ],
    duplicates: [
      "A key that prevents duplicate orders",
      { accountId: ACCOUNT_ID, name: "Marketplace", preventDuplicateOrders: true },
    ],
    publishable: [
      "A publishable key for the checkout widget",
      {
        accountId: ACCOUNT_ID,
        name: "Checkout widget",
        kind: "publishable",
        allowedOrigins: ["https://shop.example", "http://localhost:3000"],
      },
    ],
  }),
  responses: {
    201: answer(
      "The new key, in full, once.",
      CreatedApiKey,
      { created: ["The new key", createdApiKey], publishable: ["A publishable key", createdPublishableKey] },
      noStore,
    ),
  },
  errors: {
    400: { examples: { name: nameInvalid, origin: originInvalid } },
    409: {
      description: `The account has ${MAX_ACTIVE_KEYS_PER_KIND} active keys of that kind already.`,
      examples: {
        secret: ["Too many secret keys", apiKeyLimitReached("secret")],
        publishable: ["Too many publishable keys", apiKeyLimitReached("publishable")],
      },
    },
    429: {
      description:
        "Too many keys created this minute by the user or for the account; `Retry-After` says when to try again.",
      examples: Object.fromEntries(
        (["user", "account"] as const).map((whose) => [
          whose,
          [
            `Too many for the ${whose}`,
            rateLimited(
              {
                allowed: false,
                limit: API_KEY_CREATION_LIMITS[whose].perMinute,
                remaining: 0,
                resetSeconds: 60,
                retryAfterSeconds: 6,
              },
              API_KEY_CREATION_LIMITS[whose].what,
            ),
          ] as const,
        ]),
      ),
    },
  },
});

export const updateApiKeyOp = operation({
  method: "patch",
  path: "/api/v2/private/api-keys/{id}",
  operationId: "updateApiKey",
  tag: TAG,
  summary: "Change an API key",
  description:
    "Changes the name, `preventDuplicateOrders`, `permissions` or `rateLimitPerMinute` of an active key; fields not given stay. " +
    "The answer shows the key masked.",
  auth: "accessToken",
  params: keyParams,
  notFound: "API key",
  body: jsonBody(
    UpdateApiKeyRequest,
    {
      rename: ["Rename", { name: "Shop (production)" }],
      permissions: ["Narrow the permissions", { permissions: ["shipping-orders:read", "labels:read"] }],
    },
    { duplicates: ["Prevent duplicate orders", { preventDuplicateOrders: true }] },
  ),
  responses: {
    200: answer("The key, masked.", ApiKey, { updated: ["The changed key", { ...apiKey, name: "Shop (production)" }] }),
  },
  errors: {
    400: {
      examples: {
        name: nameInvalid,
        permission: [
          "Unknown permission",
          thrown(() => parseInput(updateApiKeyInput, { permissions: ["labels:write"] })),
        ],
      },
    },
  },
});

export const revokeApiKeyOp = operation({
  method: "delete",
  path: "/api/v2/private/api-keys/{id}",
  operationId: "revokeApiKey",
  tag: TAG,
  summary: "Revoke an API key",
  description:
    "Revokes the key; the very next request made with it gets 401. A revoked key answers 404 here afterwards.",
  auth: "accessToken",
  params: keyParams,
  notFound: "API key",
  responses: { 204: { description: "Revoked." } },
});

export const operations = [listApiKeysOp, createApiKeyOp, updateApiKeyOp, revokeApiKeyOp];
