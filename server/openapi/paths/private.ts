import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  ActivateSourceRequest,
  ApiKey,
  ApiKeyPage,
  AuditEventPage,
  CourierProfile,
  CourierProfileList,
  CreateApiKeyRequest,
  CreateCourierProfileRequest,
  CreatedApiKey,
  Source,
  SourceList,
  UpdateApiKeyRequest,
  UpdateCourierProfileRequest,
} from "../components";
import {
  ACCOUNT_ID,
  API_KEY_ID,
  apiKey,
  courierProfile,
  createdApiKey,
  PROFILE_ID,
  source,
  SOURCE_ID,
} from "../examples";
import {
  accessTokenErrors,
  bodyErrors,
  content,
  jsonResponse,
  malformedJson,
  ownerOnly,
  problemExample,
  problemResponse,
  stringHeader,
  type Examples,
  type HeaderMap,
} from "../responses";
import { accessTokenSecurity } from "../security";
import { pagingParams } from "./paging";

const KEYS = "Private: API keys";
const SOURCES = "Private: sources";
const PROFILES = "Private: courier profiles";
const AUDIT = "Private: audit trail";

const ACCESS =
  "`accountId` (a query parameter of reads, a body field of creates) may be omitted when the user belongs to exactly one account; with several it is required (400). " +
  "It must name an account the user belongs to (staff users: any account), else 404. Members of an account can read; only its owners (and staff) change it (else 403).";

const accountQuery = z.object({
  accountId: z
    .uuid()
    .optional()
    .meta({
      param: {
        description:
          "The account. Optional when the user belongs to exactly one account (that one is used); otherwise required (400). " +
          "An account the user does not belong to, or a malformed id → 404.",
      },
      example: ACCOUNT_ID,
    }),
});

const accountIdRequired = problemExample(
  "accountId missing for a user of several accounts",
  "bad_request",
  "accountId is required.",
  [{ field: "accountId", message: "required" }],
);

const accountNotFound = problemExample("Not the user's account", "not_found", "Account not found.");

const noStore: HeaderMap = { "Cache-Control": stringHeader("The answer carries a secret: never cached.", "no-store") };

const badBody = (examples: Examples) =>
  problemResponse("The body is not JSON, or a field is invalid: `errors` names each.", {
    malformed: malformedJson,
    ...examples,
  });

/** A create's 400: also `accountId` left out by a user of several accounts. */
const badCreateBody = (examples: Examples) =>
  problemResponse("The body is not JSON, a field is invalid (`errors` names each), or `accountId` is needed.", {
    malformed: malformedJson,
    ...examples,
    accountId: accountIdRequired,
  });

const idParams = (what: string, example: string) =>
  z.object({
    id: z
      .uuid()
      .meta({ param: { description: `The ${what}'s id. Malformed, unknown or of another account → 404.` }, example }),
  });

function registerApiKeys(registry: OpenAPIRegistry): void {
  const keyNotFound = problemResponse("No active key with this id in an account of the user.", {
    notFound: problemExample("Unknown key", "not_found", "API key not found."),
  });
  const nameInvalid = problemExample("Name too long", "bad_request", "name: name must have 1 to 100 characters", [
    { field: "name", message: "name must have 1 to 100 characters" },
  ]);

  registry.registerPath({
    method: "get",
    path: "/api/v2/private/api-keys",
    operationId: "listApiKeys",
    tags: [KEYS],
    summary: "List API keys",
    description: `The account's active (not revoked) keys, newest first, each masked as \`svc_****\` and its last 4 characters. ${ACCESS}`,
    security: accessTokenSecurity,
    request: { query: accountQuery.extend(pagingParams) },
    responses: {
      200: jsonResponse("A page of keys.", ApiKeyPage, {
        keys: {
          summary: "One key",
          value: {
            page: 1,
            pageSize: 20,
            totalPages: 1,
            nextPage: false,
            previousPage: false,
            itemsCount: 1,
            items: [apiKey],
          },
        },
      }),
      400: problemResponse("`accountId` is needed, or `page`/`pageSize` is out of range.", {
        accountId: accountIdRequired,
        pageSize: problemExample(
          "pageSize out of range",
          "bad_request",
          "pageSize: pageSize must be between 1 and 50",
          [{ field: "pageSize", message: "pageSize must be between 1 and 50" }],
        ),
      }),
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v2/private/api-keys",
    operationId: "createApiKey",
    tags: [KEYS],
    summary: "Create an API key",
    description:
      "Creates a key (`svc_` and 40+ random base62 characters) with every permission unless `permissions` narrows them. Only a hash is stored: " +
      `the full key is in this answer and never again. ${ACCESS}`,
    security: accessTokenSecurity,
    request: {
      body: {
        required: true,
        content: content(CreateApiKeyRequest, {
          basic: {
            summary: "A key with all permissions",
            value: { accountId: ACCOUNT_ID, name: "E-shop integration" },
          },
          narrowed: {
            summary: "A read-only key with its own rate limit",
            value: {
              accountId: ACCOUNT_ID,
              name: "Reporting",
              permissions: ["shipping-orders:read", "labels:read"],
              rateLimitPerMinute: 120,
            },
          },
          duplicates: {
            summary: "A key that prevents duplicate orders",
            value: { accountId: ACCOUNT_ID, name: "Marketplace", preventDuplicateOrders: true },
          },
        }),
      },
    },
    responses: {
      201: jsonResponse(
        "The new key, in full, once.",
        CreatedApiKey,
        { created: { summary: "The new key", value: createdApiKey } },
        noStore,
      ),
      400: badCreateBody({ name: nameInvalid }),
      ...ownerOnly,
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...bodyErrors("application/json"),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/api/v2/private/api-keys/{id}",
    operationId: "updateApiKey",
    tags: [KEYS],
    summary: "Change an API key",
    description:
      "Changes the name, `preventDuplicateOrders`, `permissions` or `rateLimitPerMinute` of an active key; fields not given stay. " +
      `The body is JSON, sent as \`application/json\` or \`application/merge-patch+json\` (the same merge semantics). The answer shows the key masked. ${ACCESS}`,
    security: accessTokenSecurity,
    request: {
      params: idParams("key", API_KEY_ID),
      body: {
        required: true,
        content: {
          ...content(UpdateApiKeyRequest, {
            rename: { summary: "Rename", value: { name: "Shop (production)" } },
            permissions: {
              summary: "Narrow the permissions",
              value: { permissions: ["shipping-orders:read", "labels:read"] },
            },
          }),
          ...content(
            UpdateApiKeyRequest,
            { duplicates: { summary: "Prevent duplicate orders", value: { preventDuplicateOrders: true } } },
            "application/merge-patch+json",
          ),
        },
      },
    },
    responses: {
      200: jsonResponse("The key, masked.", ApiKey, {
        updated: { summary: "The changed key", value: { ...apiKey, name: "Shop (production)" } },
      }),
      400: badBody({
        name: nameInvalid,
        permission: problemExample(
          "Unknown permission",
          "bad_request",
          'permissions[0]: Invalid option: expected one of "shipping-orders:read"|"shipping-orders:write"|"shipping-orders:validate"|"labels:read"|"configurations:read"|"events:read"',
          [
            {
              field: "permissions[0]",
              message:
                'Invalid option: expected one of "shipping-orders:read"|"shipping-orders:write"|"shipping-orders:validate"|"labels:read"|"configurations:read"|"events:read"',
            },
          ],
        ),
      }),
      ...ownerOnly,
      404: keyNotFound,
      ...bodyErrors("application/json or application/merge-patch+json"),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/api/v2/private/api-keys/{id}",
    operationId: "revokeApiKey",
    tags: [KEYS],
    summary: "Revoke an API key",
    description: `Revokes the key; the very next request made with it gets 401. A revoked key answers 404 here afterwards. ${ACCESS}`,
    security: accessTokenSecurity,
    request: { params: idParams("key", API_KEY_ID) },
    responses: {
      204: { description: "Revoked." },
      ...ownerOnly,
      404: keyNotFound,
      ...accessTokenErrors(),
    },
  });
}

function registerSources(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/v2/private/sources",
    operationId: "listSources",
    tags: [SOURCES],
    summary: "List activated sources",
    description: `The account's activated (ReferenceSource, SourceIdentifier) pairs, by ReferenceSource then SourceIdentifier. The built-in \`api\`/\`default\` is always active and not listed. ${ACCESS}`,
    security: accessTokenSecurity,
    request: { query: accountQuery },
    responses: {
      200: jsonResponse("The pairs.", SourceList, {
        sources: { summary: "One activated pair", value: { items: [source] } },
      }),
      400: problemResponse("`accountId` is needed.", { accountId: accountIdRequired }),
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v2/private/sources",
    operationId: "activateSource",
    tags: [SOURCES],
    summary: "Activate a source",
    description:
      "Activates a (ReferenceSource, SourceIdentifier) pair, so orders naming it are accepted. Matching is exact, case included. " +
      `A pair already active (or \`api\`/\`default\`, which is built in) → 409. ${ACCESS}`,
    security: accessTokenSecurity,
    request: {
      body: {
        required: true,
        content: content(ActivateSourceRequest, {
          shop: {
            summary: "An e-shop",
            value: {
              accountId: ACCOUNT_ID,
              referenceSource: "shoptet",
              sourceIdentifier: "eshop-1",
              name: "Main e-shop",
            },
          },
        }),
      },
    },
    responses: {
      201: jsonResponse("The activated pair.", Source, { activated: { summary: "Activated", value: source } }),
      400: badCreateBody({
        missing: problemExample("A part missing", "bad_request", "sourceIdentifier: sourceIdentifier is required", [
          { field: "sourceIdentifier", message: "sourceIdentifier is required" },
        ]),
      }),
      ...ownerOnly,
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      409: problemResponse("The pair is already active.", {
        active: problemExample("Already active", "conflict", "The pair shoptet/eshop-1 is already active.", [
          { field: "sourceIdentifier", message: "pair already active" },
        ]),
        builtIn: problemExample("The built-in pair", "conflict", "The pair api/default is built in and always active."),
      }),
      ...bodyErrors("application/json"),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/api/v2/private/sources/{id}",
    operationId: "deactivateSource",
    tags: [SOURCES],
    summary: "Deactivate a source",
    description: `Deactivates the pair: new orders naming it get 422; existing orders keep it. ${ACCESS}`,
    security: accessTokenSecurity,
    request: { params: idParams("source", SOURCE_ID) },
    responses: {
      204: { description: "Deactivated." },
      ...ownerOnly,
      404: problemResponse("No activated pair with this id in an account of the user.", {
        notFound: problemExample("Unknown source", "not_found", "Source not found."),
      }),
      ...accessTokenErrors(),
    },
  });
}

function registerCourierProfiles(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/v2/private/courier-profiles",
    operationId: "listCourierProfiles",
    tags: [PROFILES],
    summary: "List courier profiles",
    description: `The account's courier profiles: per courier, the default first, then by name. ${ACCESS}`,
    security: accessTokenSecurity,
    request: { query: accountQuery },
    responses: {
      200: jsonResponse("The profiles.", CourierProfileList, {
        profiles: { summary: "One sandbox profile", value: { items: [courierProfile] } },
      }),
      400: problemResponse("`accountId` is needed.", { accountId: accountIdRequired }),
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v2/private/courier-profiles",
    operationId: "createCourierProfile",
    tags: [PROFILES],
    summary: "Create a courier profile",
    description:
      "Creates a profile for a courier: its default service and courier settings. An account's first profile for a courier becomes its default; " +
      `\`isDefault: true\` takes the default over from the previous one. ${ACCESS}`,
    security: accessTokenSecurity,
    request: {
      body: {
        required: true,
        content: content(CreateCourierProfileRequest, {
          sandbox: {
            summary: "A sandbox profile",
            value: {
              accountId: ACCOUNT_ID,
              courier: "sandbox",
              name: "Sandbox",
              service: "STANDARD",
              settings: { timeoutMs: 10000 },
            },
          },
          express: {
            summary: "A second profile, made the default",
            value: { accountId: ACCOUNT_ID, courier: "sandbox", name: "Express", service: "EXPRESS", isDefault: true },
          },
        }),
      },
    },
    responses: {
      201: jsonResponse("The new profile.", CourierProfile, { created: { summary: "Created", value: courierProfile } }),
      400: badCreateBody({
        courier: problemExample("Unknown courier", "bad_request", "courier: unknown courier dhl-xyz", [
          { field: "courier", message: "unknown courier dhl-xyz" },
        ]),
        service: problemExample(
          "Unknown service",
          "bad_request",
          "service: the sandbox courier has no service OVERNIGHT",
          [{ field: "service", message: "the sandbox courier has no service OVERNIGHT" }],
        ),
      }),
      ...ownerOnly,
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...bodyErrors("application/json"),
      ...accessTokenErrors(),
    },
  });
}

function registerCourierProfileChanges(registry: OpenAPIRegistry): void {
  const profileNotFound = problemResponse(
    "No profile with this id in an account of the user (archived ones included).",
    {
      notFound: problemExample("Unknown profile", "not_found", "Courier profile not found."),
    },
  );
  registry.registerPath({
    method: "patch",
    path: "/api/v2/private/courier-profiles/{id}",
    operationId: "updateCourierProfile",
    tags: [PROFILES],
    summary: "Change a courier profile",
    description:
      "Renames a profile or changes its default service or settings (replaced as a whole); fields not given stay. Orders already " +
      "created keep what they were created with. The body is JSON, sent as `application/json` or `application/merge-patch+json`. " +
      `Make a profile the default by creating it with \`isDefault: true\` or in the dashboard. ${ACCESS}`,
    security: accessTokenSecurity,
    request: {
      params: idParams("courier profile", PROFILE_ID),
      body: {
        required: true,
        content: {
          ...content(UpdateCourierProfileRequest, {
            rename: { summary: "Rename", value: { name: "Sandbox (warehouse 2)" } },
            settings: { summary: "A longer courier timeout", value: { settings: { timeoutMs: 20000 } } },
          }),
          ...content(
            UpdateCourierProfileRequest,
            { service: { summary: "Another default service", value: { service: "EXPRESS" } } },
            "application/merge-patch+json",
          ),
        },
      },
    },
    responses: {
      200: jsonResponse("The changed profile.", CourierProfile, {
        updated: { summary: "Renamed", value: { ...courierProfile, name: "Sandbox (warehouse 2)" } },
      }),
      400: badBody({
        empty: problemExample("Nothing to change", "bad_request", "body: give name, service or settings", [
          { field: "body", message: "give name, service or settings" },
        ]),
        service: problemExample(
          "Unknown service",
          "bad_request",
          "service: the sandbox courier has no service OVERNIGHT",
          [{ field: "service", message: "the sandbox courier has no service OVERNIGHT" }],
        ),
      }),
      ...ownerOnly,
      404: profileNotFound,
      ...bodyErrors("application/json"),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/api/v2/private/courier-profiles/{id}",
    operationId: "deleteCourierProfile",
    tags: [PROFILES],
    summary: "Delete a courier profile",
    description:
      "Deletes a profile no order used. A profile orders used (live, deleted or replaced) is archived instead: it leaves the lists, " +
      "`?profile=` with it answers 404, and its orders keep tracking and can still be deleted. A default profile hands the default " +
      `to the courier's oldest remaining profile. Afterwards the id answers 404. ${ACCESS}`,
    security: accessTokenSecurity,
    request: { params: idParams("courier profile", PROFILE_ID) },
    responses: {
      204: { description: "Deleted, or archived when orders used it." },
      ...ownerOnly,
      404: profileNotFound,
      ...accessTokenErrors(),
    },
  });
}

function registerAuditEvents(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/v2/private/audit-events",
    operationId: "listAuditEvents",
    tags: [AUDIT],
    summary: "List audit events",
    description:
      "The account's audit trail, newest first: who changed keys, sources and courier profiles, and who signed in, when and from which address. " +
      "Only owners (and staff) may read it (members → 403), since it shows who did what from where. " +
      "`accountId` may be omitted when the user belongs to exactly one account; with several it is required (400). Not an account of the user → 404.",
    security: accessTokenSecurity,
    request: { query: accountQuery.extend(pagingParams) },
    responses: {
      200: jsonResponse("A page of events.", AuditEventPage, {
        events: {
          summary: "A key created",
          value: {
            page: 1,
            pageSize: 20,
            totalPages: 1,
            nextPage: false,
            previousPage: false,
            itemsCount: 1,
            items: [
              {
                id: "0b6f2d9e-3c1a-4e8b-9f7d-5a2c4e6b8d10",
                action: "api_key.created",
                actor: "owner@example.com",
                targetId: API_KEY_ID,
                details: { name: "E-shop integration" },
                ip: "203.0.113.7",
                created: "2026-11-21T23:52:17.097",
              },
            ],
          },
        },
      }),
      400: problemResponse("`accountId` is needed, or `page`/`pageSize` is out of range.", {
        accountId: accountIdRequired,
      }),
      403: problemResponse("The user is a member, not an owner, of the account.", {
        member: problemExample("Member, not owner", "forbidden", "Only owners and staff can read the audit trail."),
      }),
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...accessTokenErrors(),
    },
  });
}

export function registerPrivate(registry: OpenAPIRegistry): void {
  registerApiKeys(registry);
  registerSources(registry);
  registerCourierProfiles(registry);
  registerCourierProfileChanges(registry);
  registerAuditEvents(registry);
}
