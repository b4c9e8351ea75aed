import { AppError, badField } from "@/server/errors";
import { rateLimited } from "@/server/services/rate-limits/take-tokens";
import { WEBHOOK_ACTION_LIMITS, type WebhookAction } from "@/server/services/rate-limits/throttle-webhook-action";
import { MAX_WEBHOOK_ENDPOINTS } from "@/server/services/webhooks/create-webhook-endpoint";
import { operation } from "@/server/http/operation";
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointRequest,
  ResendAccepted,
  RotatedWebhookSecret,
  TestWebhookAccepted,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointPage,
} from "@/server/openapi/components";
import {
  ACCOUNT_ID,
  DELIVERY_ID,
  ENDPOINT_ID,
  EVENT_ID,
  pageOf,
  SECRET,
  webhookDelivery,
  webhookEndpoint,
} from "@/server/openapi/examples";
import { createWebhookEndpointInput, listDeliveriesQuery } from "@/server/services/webhooks/schemas";
import { parseInput } from "@/server/validation";
import { answer, describeParams, idParams, jsonBody, noStore, pagedAccountQuery, pagingParams, thrown } from "./shared";

const TAG = "Private: webhooks";
const endpointParams = idParams("endpoint", ENDPOINT_ID);
const urlRefused = ["Target refused", badField("url", "must resolve to public addresses only")] as const;

const TARGET_RULES =
  "`url` must be `https://` on a public address: `http://`, and hosts that resolve to loopback, private, link-local or other non-public addresses, are refused with 400 " +
  "naming `url` (unless the server runs with `WEBHOOK_ALLOW_PRIVATE_TARGETS=true`, for development and tests). The host is resolved when the endpoint is saved " +
  "and again for every attempt, which connects to exactly the address it checked (a name that resolves to a private address at delivery time is refused " +
  "then too). Only ports 443, 80 and 1024-65535 are allowed; IPv4-compatible IPv6 addresses (`::a.b.c.d`, `::/96`) are refused.";

const throttled = (action: WebhookAction) => {
  const { perMinute, what } = WEBHOOK_ACTION_LIMITS[action];
  return {
    description: `More than ${perMinute} a minute for the account; \`Retry-After\` says when to try again.`,
    examples: {
      throttled: [
        "Too many",
        rateLimited(
          { allowed: false, limit: perMinute, remaining: 0, resetSeconds: 60, retryAfterSeconds: 6 },
          `${what} for this account`,
        ),
      ] as const,
    },
  };
};

export const listWebhookEndpointsOp = operation({
  method: "get",
  path: "/api/v2/private/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  tag: TAG,
  summary: "List webhook endpoints",
  description:
    "The account's endpoints, newest first, without secrets, with their health (`lastSuccess`, `failureStreak`, `disabledReason`).",
  auth: "accessToken",
  query: pagedAccountQuery,
  responses: {
    200: answer("A page of endpoints.", WebhookEndpointPage, {
      endpoints: ["One endpoint", pageOf([webhookEndpoint])],
    }),
  },
});

export const createWebhookEndpointOp = operation({
  method: "post",
  path: "/api/v2/private/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  tag: TAG,
  summary: "Create a webhook endpoint",
  description:
    "Registers an endpoint for the account's events of the listed `eventTypes` (omitted: every type) from the listed source `sources` (omitted or null: " +
    "every pair, also pairs activated later). The answer holds the signing `secret` (`whsec_` + base64 of 32 random bytes) once; it is never shown again " +
    "(rotate it to get a new one). " +
    "Each event is POSTed as JSON with the Standard Webhooks headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix " +
    "seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the secret's base64-decoded bytes). A 2xx " +
    "answer within 10 s is success; anything else (also a redirect, which is not followed) is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and " +
    "10 h, then the delivery is `failed`. `410 Gone` disables the endpoint at once; an endpoint whose every attempt failed for 5 days is disabled. Delivery " +
    `is at least once and may be out of order: deduplicate by \`webhook-id\`, order by the event's \`created\`. ${TARGET_RULES}`,
  auth: "accessToken",
  body: jsonBody(CreateWebhookEndpointRequest, {
    all: ["Every event of the account", { accountId: ACCOUNT_ID, url: webhookEndpoint.url }],
    narrowed: [
      "Status changes of one e-shop",
      {
        accountId: ACCOUNT_ID,
        url: webhookEndpoint.url,
        description: "ERP order sync",
        eventTypes: ["shipping_order.status_changed"],
        sources: webhookEndpoint.sources,
      },
    ],
  }),
  responses: {
    201: answer(
      "The new endpoint and its secret, once.",
      CreatedWebhookEndpoint,
      { created: ["The new endpoint", { ...webhookEndpoint, lastSuccess: null, secret: SECRET }] },
      noStore,
    ),
  },
  errors: {
    409: {
      description: `The account has ${MAX_WEBHOOK_ENDPOINTS} endpoints already.`,
      examples: {
        full: [
          "Too many endpoints",
          new AppError(
            "conflict",
            `An account can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one before adding another.`,
          ),
        ],
      },
    },
    429: throttled("create"),
    400: {
      examples: {
        refused: urlRefused,
        https: ["Not https", badField("url", "must use https://")],
        eventTypes: [
          "Unknown event type",
          thrown(() =>
            parseInput(createWebhookEndpointInput, { url: webhookEndpoint.url, eventTypes: ["order.created"] }),
          ),
        ],
      },
    },
  },
});

export const updateWebhookEndpointOp = operation({
  method: "patch",
  path: "/api/v2/private/webhook-endpoints/{id}",
  operationId: "updateWebhookEndpoint",
  tag: TAG,
  summary: "Change a webhook endpoint",
  description:
    "Changes `url`, `description`, `eventTypes`, `sources` (null: every pair) or `enabled`; fields not given stay. `enabled: true` on an endpoint the " +
    "platform disabled also clears its failure streak. New events reach it from then on; deliveries made while it was disabled are `failed` and can be " +
    `resent. \`application/merge-patch+json\` has the same merge semantics as \`application/json\`. ${TARGET_RULES}`,
  auth: "accessToken",
  params: endpointParams,
  notFound: "Webhook endpoint",
  body: jsonBody(
    UpdateWebhookEndpointRequest,
    {
      disable: ["Pause deliveries", { enabled: false }],
      move: ["A new URL for every pair", { url: "https://erp.example.com/hooks/v2", sources: null }],
    },
    { enable: ["Enable again", { enabled: true }] },
  ),
  responses: {
    200: answer("The endpoint.", WebhookEndpoint, { updated: ["Paused", { ...webhookEndpoint, enabled: false }] }),
  },
  errors: { 400: { examples: { refused: urlRefused } }, 429: throttled("update") },
});

export const deleteWebhookEndpointOp = operation({
  method: "delete",
  path: "/api/v2/private/webhook-endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  tag: TAG,
  summary: "Delete a webhook endpoint",
  description: "Removes the endpoint and its delivery log; attempts still queued for it are dropped.",
  auth: "accessToken",
  params: endpointParams,
  notFound: "Webhook endpoint",
  responses: { 204: { description: "Deleted." } },
});

export const rotateWebhookSecretOp = operation({
  method: "post",
  path: "/api/v2/private/webhook-endpoints/{id}/rotate-secret",
  operationId: "rotateWebhookSecret",
  tag: TAG,
  summary: "Rotate an endpoint's secret",
  description:
    "A new signing secret, shown once. For 24 hours the previous secret signs too: `webhook-signature` then holds two space-separated `v1,` signatures " +
    "(the new one first), and a receiver accepts the message if either verifies. Rotating again within those 24 hours drops the oldest secret.",
  auth: "accessToken",
  params: endpointParams,
  notFound: "Webhook endpoint",
  responses: {
    200: answer("The new secret.", RotatedWebhookSecret, { rotated: ["New secret", { secret: SECRET }] }, noStore),
  },
});

export const sendTestWebhookOp = operation({
  method: "post",
  path: "/api/v2/private/webhook-endpoints/{id}/test",
  operationId: "sendTestWebhook",
  tag: TAG,
  summary: "Send a test event",
  description:
    "Queues a `webhook.test` event (`referenceSource` and `sourceIdentifier` null, `data: { webhookEndpointId, message }`) for this endpoint only, also " +
    "when it is disabled, signed and retried like any delivery. It shows in the endpoint's deliveries, not in the event feed.",
  auth: "accessToken",
  params: endpointParams,
  notFound: "Webhook endpoint",
  responses: { 202: answer("Queued.", TestWebhookAccepted, { queued: ["Queued", { eventId: EVENT_ID }] }) },
  errors: { 429: throttled("test") },
});

const deliveriesQuery = describeParams(listDeliveriesQuery.extend(pagingParams), {
  status: ["Only deliveries in this status."],
});

export const listWebhookDeliveriesOp = operation({
  method: "get",
  path: "/api/v2/private/webhook-endpoints/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tag: TAG,
  summary: "List an endpoint's deliveries",
  description:
    "The endpoint's deliveries, newest first: one per event, with the attempts made, the last attempt's HTTP status (`responseStatus`, null when there was " +
    "no answer, with `lastError` saying why) and `durationMs`, and `nextAttempt` while it is `pending`.",
  auth: "accessToken",
  params: endpointParams,
  notFound: "Webhook endpoint",
  query: deliveriesQuery,
  responses: {
    200: answer("A page of deliveries.", WebhookDeliveryPage, {
      deliveries: ["A delivery being retried", pageOf([webhookDelivery])],
    }),
  },
  errors: {
    400: { examples: { status: ["Unknown status", thrown(() => parseInput(deliveriesQuery, { status: "lost" }))] } },
  },
});

export const resendWebhookDeliveryOp = operation({
  method: "post",
  path: "/api/v2/private/webhook-deliveries/{id}/resend",
  operationId: "resendWebhookDelivery",
  tag: TAG,
  summary: "Resend a delivery",
  description:
    "Sends the delivery's event again now (same `webhook-id`), whatever its status; it is `pending` again with a fresh retry schedule.",
  auth: "accessToken",
  params: idParams("delivery", DELIVERY_ID),
  notFound: "Webhook delivery",
  responses: { 202: answer("Queued.", ResendAccepted, { queued: ["Queued", { id: DELIVERY_ID, status: "pending" }] }) },
  errors: { 429: throttled("resend") },
});

export const operations = [
  listWebhookEndpointsOp,
  createWebhookEndpointOp,
  updateWebhookEndpointOp,
  deleteWebhookEndpointOp,
  rotateWebhookSecretOp,
  sendTestWebhookOp,
  listWebhookDeliveriesOp,
  resendWebhookDeliveryOp,
];
