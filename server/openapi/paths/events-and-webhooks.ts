import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ORDER_EVENT_TYPES } from "@/server/services/events/event-types";
import { DELIVERY_STATUSES } from "@/server/services/webhooks/schemas";
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointRequest,
  EventFeed,
  ResendAccepted,
  RotatedWebhookSecret,
  TestWebhookAccepted,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointPage,
} from "../components";
import { ACCOUNT_ID, shippingOrder } from "../examples";
import {
  accessTokenErrors,
  apiKeyResponses,
  bodyErrors,
  content,
  jsonResponse,
  malformedJson,
  ownerOnly,
  problemExample,
  problemResponse,
  stringHeader,
  type HeaderMap,
} from "../responses";
import { accessTokenSecurity, apiKeySecurity } from "../security";
import { pagingParams } from "./paging";

const EVENTS = "Events";
const WEBHOOKS = "Private: webhooks";

export const EVENTS_TAGS = [
  {
    name: EVENTS,
    description:
      "Order events keyed on the source pair: the pull feed. The same events are pushed to webhook endpoints (see *Private: webhooks*).",
  },
  {
    name: WEBHOOKS,
    description:
      "Webhook endpoints of an account, their deliveries and secrets (access token). Deliveries follow the Standard Webhooks specification.",
  },
];

const ENDPOINT_ID = "0f5a2c1e-7d3b-4e8f-9a6c-2b1d4e7f8a90";
const EVENT_ID = "4a7e9c2d-1b3f-4d5e-8f6a-7b8c9d0e1f2a";
const DELIVERY_ID = "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5nJ8Ns3aGR8=";

const event = {
  id: EVENT_ID,
  type: "shipping_order.status_changed",
  created: "2026-11-22T08:14:03.512",
  referenceSource: "api",
  sourceIdentifier: "default",
  data: {
    shippingOrder: {
      ...shippingOrder,
      status: "HANDED_OVER",
      shipmentTracking: { ...shippingOrder.shipmentTracking, status: "HANDED_OVER" },
    },
    previousStatus: "CREATED",
  },
};
const createdEvent = {
  id: "5b8f0d3e-2c4a-4e6f-9a7b-8c9d0e1f2a3b",
  type: "shipping_order.created",
  created: "2026-11-21T23:52:17.097",
  referenceSource: "api",
  sourceIdentifier: "default",
  data: { shippingOrder, replaced: null },
};

const endpoint = {
  id: ENDPOINT_ID,
  url: "https://erp.example.com/hooks/shipping",
  description: "ERP order sync",
  eventTypes: [...ORDER_EVENT_TYPES],
  sources: [{ referenceSource: "shoptet", sourceIdentifier: "eshop-1" }],
  enabled: true,
  disabledReason: null,
  created: "2026-11-22T08:00:00.000",
  lastSuccess: "2026-11-22T08:14:04.020",
  failureStreak: 0,
};

const delivery = {
  id: DELIVERY_ID,
  eventId: EVENT_ID,
  eventType: "shipping_order.status_changed",
  attempts: 2,
  status: "pending",
  responseStatus: 503,
  durationMs: 412,
  created: "2026-11-22T08:14:03.512",
  nextAttempt: "2026-11-22T08:19:04.100",
  lastError: null,
};

const noStore: HeaderMap = { "Cache-Control": stringHeader("The answer carries a secret: never cached.", "no-store") };

const endpointParams = z.object({
  id: z.uuid().meta({
    param: { description: "The endpoint's id. Malformed, unknown or of another account → 404." },
    example: ENDPOINT_ID,
  }),
});

const endpointNotFound = problemResponse("No endpoint with this id in an account of the user.", {
  notFound: problemExample("Unknown endpoint", "not_found", "Webhook endpoint not found."),
});

const accountNotFound = problemExample("Not the user's account", "not_found", "Account not found.");

const urlRefused = problemExample(
  "Target refused",
  "bad_request",
  "url: resolves to 127.0.0.1, which is not a public address",
  [{ field: "url", message: "resolves to 127.0.0.1, which is not a public address" }],
);
const notHttps = problemExample("Not https", "bad_request", "url: must use https://", [
  { field: "url", message: "must use https://" },
]);
const unknownParameter = (name: string, accepted: string) =>
  problemExample(
    "Unknown parameter",
    "bad_request",
    `Unknown query parameter ${name}. This operation accepts ${accepted}.`,
    [{ field: name, message: "is not a parameter of this operation" }],
  );

const WEBHOOK_RULES =
  "`url` must be `https://` on a public address: `http://`, and hosts that resolve to loopback, private, link-local or other non-public addresses, are refused with 400 " +
  "naming `url` (unless the server runs with `WEBHOOK_ALLOW_PRIVATE_TARGETS=true`, for development and tests). The host is resolved when the endpoint is saved " +
  "and again for every attempt, which connects to exactly the address it checked. " +
  "Members of an account can read its endpoints and deliveries; only owners (and staff) change them (403).";

export function registerEventsAndWebhooks(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/v2/events",
    operationId: "listEvents",
    tags: [EVENTS],
    summary: "Read the event feed",
    description:
      "The account's order events, oldest first: `shipping_order.created` (a replacement too), `shipping_order.status_changed` (tracking moved), " +
      "`shipping_order.cancelled` (`reason` `deleted` or `replaced`) and `shipping_order.courier_rejected`. Each is written in the transaction of the change " +
      "it records and carries the order exactly as `GET /shipping-orders/{id}` returned it then. Start without `after`, then pass the id of the last event " +
      "you processed as `after`; `next` is that id when more events are already waiting, else null (poll again later with the last id you have). " +
      "An event appears once every transaction that began before it has ended, so a cursor never skips an event that commits late. " +
      "Events are kept 30 days; an `after` that is not an event of the account (or was removed by retention) → 400. Requires the permission `events:read`.",
    security: apiKeySecurity("events:read"),
    request: {
      query: z.object({
        after: z
          .uuid()
          .optional()
          .meta({
            param: { description: "The id of an event: only events after it. Omitted: from the oldest event kept." },
            example: EVENT_ID,
          }),
        types: z
          .array(z.enum(ORDER_EVENT_TYPES))
          .optional()
          .meta({
            param: {
              description: "Only these types; repeated (`?types=a&types=b`) or comma-separated (`?types=a,b`).",
              style: "form",
              explode: true,
            },
          }),
        referenceSource: z
          .string()
          .optional()
          .meta({
            param: { description: "Only events of this ReferenceSource (exact, case included)." },
            example: "shoptet",
          }),
        sourceIdentifier: z
          .string()
          .optional()
          .meta({ param: { description: "Only events of this SourceIdentifier (exact)." }, example: "eshop-1" }),
        limit: z
          .number()
          .int()
          .min(1)
          .max(100)
          .default(50)
          .optional()
          .meta({ param: { description: "Events per page, 1..100 (default 50). Out of range → 400." } }),
      }),
    },
    responses: apiKeyResponses("events:read", {
      200: jsonResponse("Events, oldest first.", EventFeed, {
        more: { summary: "A page with more to come", value: { items: [createdEvent, event], next: EVENT_ID } },
        end: { summary: "Read to the end", value: { items: [], next: null } },
      }),
      400: problemResponse("An unknown `after`, a malformed or unknown parameter.", {
        after: problemExample(
          "Unknown cursor",
          "bad_request",
          "after: is not the id of an event of this account (events are kept 30 days)",
          [{ field: "after", message: "is not the id of an event of this account (events are kept 30 days)" }],
        ),
        limit: problemExample("limit out of range", "bad_request", "limit: limit must be from 1 to 100", [
          { field: "limit", message: "limit must be from 1 to 100" },
        ]),
        unknown: unknownParameter("type", "after, types, referenceSource, sourceIdentifier, limit"),
      }),
    }),
  });

  registry.registerPath({
    method: "get",
    path: "/api/v2/private/webhook-endpoints",
    operationId: "listWebhookEndpoints",
    tags: [WEBHOOKS],
    summary: "List webhook endpoints",
    description: `The account's endpoints, newest first, without secrets, with their health (\`lastSuccess\`, \`failureStreak\`, \`disabledReason\`). ${WEBHOOK_RULES}`,
    security: accessTokenSecurity,
    request: {
      query: z
        .object({
          accountId: z
            .uuid()
            .optional()
            .meta({
              param: {
                description: "The account; optional when the user belongs to exactly one. Not the user's → 404.",
              },
              example: ACCOUNT_ID,
            }),
        })
        .extend(pagingParams),
    },
    responses: {
      200: jsonResponse("A page of endpoints.", WebhookEndpointPage, {
        endpoints: {
          summary: "One endpoint",
          value: {
            page: 1,
            pageSize: 20,
            totalPages: 1,
            nextPage: false,
            previousPage: false,
            itemsCount: 1,
            items: [endpoint],
          },
        },
      }),
      400: problemResponse("`accountId` is needed, paging is out of range, or a parameter is unknown.", {
        accountId: problemExample("accountId missing", "bad_request", "accountId is required.", [
          { field: "accountId", message: "required" },
        ]),
        unknown: unknownParameter("account", "accountId, page, pageSize"),
      }),
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v2/private/webhook-endpoints",
    operationId: "createWebhookEndpoint",
    tags: [WEBHOOKS],
    summary: "Create a webhook endpoint",
    description:
      "Registers an endpoint for the account's events of the listed `eventTypes` (omitted: every type) from the listed source `sources` (omitted or null: " +
      "every pair, also pairs activated later). The answer holds the signing `secret` (`whsec_` + base64 of 32 random bytes) once; it is never shown again " +
      "(rotate it to get a new one). " +
      "Each event is POSTed as JSON with the Standard Webhooks headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix " +
      "seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the secret's base64-decoded bytes). A 2xx " +
      "answer within 10 s is success; anything else (also a redirect, which is not followed) is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and " +
      "10 h, then the delivery is `failed`. `410 Gone` disables the endpoint at once; an endpoint whose every attempt failed for 5 days is disabled. Delivery " +
      `is at least once and may be out of order: deduplicate by \`webhook-id\`, order by the event's \`created\`. ${WEBHOOK_RULES}`,
    security: accessTokenSecurity,
    request: {
      body: {
        required: true,
        content: content(CreateWebhookEndpointRequest, {
          all: {
            summary: "Every event of the account",
            value: { accountId: ACCOUNT_ID, url: "https://erp.example.com/hooks/shipping" },
          },
          narrowed: {
            summary: "Status changes of one e-shop",
            value: {
              accountId: ACCOUNT_ID,
              url: "https://erp.example.com/hooks/shipping",
              description: "ERP order sync",
              eventTypes: ["shipping_order.status_changed"],
              sources: [{ referenceSource: "shoptet", sourceIdentifier: "eshop-1" }],
            },
          },
        }),
      },
    },
    responses: {
      201: jsonResponse(
        "The new endpoint and its secret, once.",
        CreatedWebhookEndpoint,
        { created: { summary: "The new endpoint", value: { ...endpoint, lastSuccess: null, secret: SECRET } } },
        noStore,
      ),
      400: problemResponse(
        "The body is not JSON, a field is invalid (`errors` names each), or the target is refused.",
        {
          malformed: malformedJson,
          refused: urlRefused,
          https: notHttps,
          eventTypes: problemExample(
            "Unknown event type",
            "bad_request",
            'eventTypes[0]: Invalid option: expected one of "shipping_order.created"|"shipping_order.status_changed"|"shipping_order.cancelled"|"shipping_order.courier_rejected"',
            [
              {
                field: "eventTypes[0]",
                message:
                  'Invalid option: expected one of "shipping_order.created"|"shipping_order.status_changed"|"shipping_order.cancelled"|"shipping_order.courier_rejected"',
              },
            ],
          ),
        },
      ),
      ...ownerOnly,
      404: problemResponse("Not an account of the user.", { account: accountNotFound }),
      ...bodyErrors("application/json"),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/api/v2/private/webhook-endpoints/{id}",
    operationId: "updateWebhookEndpoint",
    tags: [WEBHOOKS],
    summary: "Change a webhook endpoint",
    description:
      "Changes `url`, `description`, `eventTypes`, `sources` (null: every pair) or `enabled`; fields not given stay. `enabled: true` on an endpoint the " +
      "platform disabled also clears its failure streak. New events reach it from then on; deliveries made while it was disabled are `failed` and can be " +
      `resent. The body is \`application/json\` or \`application/merge-patch+json\`. ${WEBHOOK_RULES}`,
    security: accessTokenSecurity,
    request: {
      params: endpointParams,
      body: {
        required: true,
        content: {
          ...content(UpdateWebhookEndpointRequest, {
            disable: { summary: "Pause deliveries", value: { enabled: false } },
            move: {
              summary: "A new URL for every pair",
              value: { url: "https://erp.example.com/hooks/v2", sources: null },
            },
          }),
          ...content(
            UpdateWebhookEndpointRequest,
            { enable: { summary: "Enable again", value: { enabled: true } } },
            "application/merge-patch+json",
          ),
        },
      },
    },
    responses: {
      200: jsonResponse("The endpoint.", WebhookEndpoint, {
        updated: { summary: "Paused", value: { ...endpoint, enabled: false } },
      }),
      400: problemResponse("The body is not JSON, a field is invalid, or the target is refused.", {
        malformed: malformedJson,
        refused: urlRefused,
      }),
      ...ownerOnly,
      404: endpointNotFound,
      ...bodyErrors("application/json or application/merge-patch+json"),
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/api/v2/private/webhook-endpoints/{id}",
    operationId: "deleteWebhookEndpoint",
    tags: [WEBHOOKS],
    summary: "Delete a webhook endpoint",
    description: `Removes the endpoint and its delivery log; attempts still queued for it are dropped. ${WEBHOOK_RULES}`,
    security: accessTokenSecurity,
    request: { params: endpointParams },
    responses: { 204: { description: "Deleted." }, ...ownerOnly, 404: endpointNotFound, ...accessTokenErrors() },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v2/private/webhook-endpoints/{id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    tags: [WEBHOOKS],
    summary: "Rotate an endpoint's secret",
    description:
      "A new signing secret, shown once. For 24 hours the previous secret signs too: `webhook-signature` then holds two space-separated `v1,` signatures " +
      "(the new one first), and a receiver accepts the message if either verifies. Rotating again within those 24 hours drops the oldest secret. " +
      WEBHOOK_RULES,
    security: accessTokenSecurity,
    request: { params: endpointParams },
    responses: {
      200: jsonResponse(
        "The new secret.",
        RotatedWebhookSecret,
        { rotated: { summary: "New secret", value: { secret: SECRET } } },
        noStore,
      ),
      ...ownerOnly,
      404: endpointNotFound,
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v2/private/webhook-endpoints/{id}/test",
    operationId: "sendTestWebhook",
    tags: [WEBHOOKS],
    summary: "Send a test event",
    description:
      "Queues a `webhook.test` event (`referenceSource` and `sourceIdentifier` null, `data: { webhookEndpointId, message }`) for this endpoint only, also " +
      "when it is disabled, signed and retried like any delivery. It shows in the endpoint's deliveries, not in the event feed. " +
      WEBHOOK_RULES,
    security: accessTokenSecurity,
    request: { params: endpointParams },
    responses: {
      202: jsonResponse("Queued.", TestWebhookAccepted, {
        queued: { summary: "Queued", value: { eventId: EVENT_ID } },
      }),
      ...ownerOnly,
      404: endpointNotFound,
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/api/v2/private/webhook-endpoints/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    tags: [WEBHOOKS],
    summary: "List an endpoint's deliveries",
    description:
      "The endpoint's deliveries, newest first: one per event, with the attempts made, the last attempt's HTTP status (`responseStatus`, null when there was " +
      "no answer, with `lastError` saying why) and `durationMs`, and `nextAttempt` while it is `pending`. " +
      WEBHOOK_RULES,
    security: accessTokenSecurity,
    request: {
      params: endpointParams,
      query: z
        .object({
          status: z
            .enum(DELIVERY_STATUSES)
            .optional()
            .meta({ param: { description: "Only deliveries in this status." } }),
        })
        .extend(pagingParams),
    },
    responses: {
      200: jsonResponse("A page of deliveries.", WebhookDeliveryPage, {
        deliveries: {
          summary: "A delivery being retried",
          value: {
            page: 1,
            pageSize: 20,
            totalPages: 1,
            nextPage: false,
            previousPage: false,
            itemsCount: 1,
            items: [delivery],
          },
        },
      }),
      400: problemResponse("A malformed or unknown parameter.", {
        status: problemExample(
          "Unknown status",
          "bad_request",
          "status: status must be one of pending, succeeded, failed",
          [{ field: "status", message: "status must be one of pending, succeeded, failed" }],
        ),
        unknown: unknownParameter("state", "status, page, pageSize"),
      }),
      404: endpointNotFound,
      ...accessTokenErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/api/v2/private/webhook-deliveries/{id}/resend",
    operationId: "resendWebhookDelivery",
    tags: [WEBHOOKS],
    summary: "Resend a delivery",
    description:
      "Sends the delivery's event again now (same `webhook-id`), whatever its status; it is `pending` again with a fresh retry schedule. " +
      WEBHOOK_RULES,
    security: accessTokenSecurity,
    request: {
      params: z.object({
        id: z.uuid().meta({
          param: { description: "The delivery's id. Malformed, unknown or of another account → 404." },
          example: DELIVERY_ID,
        }),
      }),
    },
    responses: {
      202: jsonResponse("Queued.", ResendAccepted, {
        queued: { summary: "Queued", value: { id: DELIVERY_ID, status: "pending" } },
      }),
      ...ownerOnly,
      404: problemResponse("No delivery with this id in an account of the user.", {
        notFound: problemExample("Unknown delivery", "not_found", "Webhook delivery not found."),
      }),
      ...accessTokenErrors(),
    },
  });
}
