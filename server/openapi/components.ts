import { checkResultSchema } from "@/server/services/courier-profiles/check-courier-profile";
import { accountChoiceView, accountView, updateAccountInput } from "@/server/services/accounts/account-settings";
import { statisticsView } from "@/server/services/statistics/schemas";
import { z } from "zod";
import type { Problem } from "@/server/http/problem";
import type { AccessTokenResponse } from "@/server/services/accounts/issue-access-token";
import { issueAccessTokenInput } from "@/server/services/accounts/issue-access-token";
import {
  apiKeyView,
  createApiKeyInput,
  createdApiKeyView,
  updateApiKeyInput,
} from "@/server/services/api-keys/schemas";
import { auditEventView } from "@/server/services/audit/list-audit-events";
import { courierView } from "@/server/services/configurations/list-couriers";
import { sourceConfigurationView } from "@/server/services/configurations/list-source-configurations";
import {
  courierProfileView,
  createCourierProfileInput,
  updateCourierProfileInput,
} from "@/server/services/courier-profiles/schemas";
import { MAX_PAGE_SIZE } from "@/server/services/pagination";
import {
  createdShippingOrderView,
  createResponseSchema,
  type CreateResponse,
} from "@/server/services/shipping-orders/create-shipping-orders";
import { MAX_BATCH } from "@/server/services/shipping-orders/order-batch";
import { orderRequestSchema } from "@/server/services/shipping-orders/order-request";
import { shippingOrderView } from "@/server/services/shipping-orders/shipping-order-view";
import { validationResponseSchema } from "@/server/services/shipping-orders/validation-messages";
import { activateSourceInput, sourceView } from "@/server/services/sources/schemas";
import { pickupPointView } from "@/server/services/pickup-points/search-pickup-points";
import { eventView } from "@/server/services/events/event-types";
import {
  createdWebhookEndpointView,
  createWebhookEndpointInput,
  rotatedSecretView,
  updateWebhookEndpointInput,
  webhookDeliveryView,
  webhookEndpointView,
} from "@/server/services/webhooks/schemas";

/**
 * The named schemas of the document. Request and response shapes are the services' own zod schemas, given
 * a component name with `.meta({ id })` (which clones, so the services' schemas stay untouched); only the
 * shapes no service declares in zod (the problem body, envelopes, the token answer) are written here.
 */

const named = <S extends z.ZodType>(id: string, schema: S, description?: string): S =>
  schema.meta(description ? { id, description } : { id });

const fieldError = z.object({
  field: z.string().describe("The field or parameter at fault: `Recipient.Zip`, `pageSize`, `body`, `Content-Type`."),
  message: z.string(),
});

export const ProblemSchema = named(
  "Problem",
  z.object({
    type: z
      .string()
      .describe(
        "A URI reference naming the kind of problem, relative to the request's URL: `/problems/<code>` is a page of this site explaining it (e.g. `/problems/not-found`); `about:blank` when the problem is no more than its status.",
      ),
    title: z.string().describe("The HTTP reason phrase of `status`."),
    status: z.number().int().describe("The HTTP status code, repeated."),
    detail: z.string().describe("What went wrong with this request, in a sentence a developer can act on."),
    code: z
      .string()
      .optional()
      .describe(
        "The contract's code of the problem where it names one: `COURIER_CANNOT_CANCEL` (409 on delete), `COURIER_UNAVAILABLE` (502 on a label the courier cannot produce, 503 on a cancel it could not be asked for), `COURIER_TIMEOUT`.",
      ),
    errors: z.array(fieldError).optional().describe("Present when particular fields or parameters are at fault."),
  }) satisfies z.ZodType<Problem>,
  "An RFC 9457 problem detail, sent as `application/problem+json` with every error status.",
);

/** The paging envelope every paged list answers with. */
export const page = <T extends z.ZodType>(id: string, item: T, what: string) =>
  named(
    id,
    z.object({
      page: z.number().int().min(1).describe("The page returned (1-based)."),
      pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).describe("Items per page."),
      totalPages: z.number().int().min(0).describe("Pages in total; 0 when nothing matches."),
      nextPage: z.boolean().describe("Whether a next page exists (`page` < `totalPages`)."),
      previousPage: z.boolean().describe("Whether a previous page exists (`page` > 1)."),
      itemsCount: z
        .number()
        .int()
        .min(0)
        .describe("Items matching the request across all pages (not the count on this page)."),
      items: z.array(item).describe("This page's items, newest first."),
    }),
    `A page of ${what}.`,
  );

/** `{ items: [...] }`: an unpaged list. */
const itemsOf = <T extends z.ZodType>(id: string, item: T, what: string) =>
  named(id, z.object({ items: z.array(item) }), `Every ${what}, unpaged.`);

export const ShippingOrderRequest = named(
  "ShippingOrderRequest",
  orderRequestSchema,
  "One shipping order as a partner sends it. Field names are PascalCase and matched case-insensitively; unknown fields are ignored. " +
    "Optional strings that are empty, blank or null count as absent. `Recipient.Country` and `CodCurrency` are upper-cased; " +
    "`Recipient.Phone` is national for `Recipient.Country` (`777 123 456`) or international (`+420 777 123 456`), stored and " +
    "answered in E.164 (`+420777123456`).",
);
export const ShippingOrderBatch = named(
  "ShippingOrderBatch",
  z.array(ShippingOrderRequest).min(1).max(MAX_BATCH),
  `1 to ${MAX_BATCH} orders; more → 400, an empty array → 400.`,
);
export const ShippingOrderRequestOrBatch = named(
  "ShippingOrderRequestOrBatch",
  z.union([ShippingOrderRequest, ShippingOrderBatch]),
  "As `application/json`, the body's shape decides: an array is a batch, an object is one order.",
);

export const ValidationResult = named(
  "ValidationResult",
  validationResponseSchema,
  "The result of one order: `ERROR` if any message is an error, else `WARNING` if any is a warning, else `OK`.",
);
export const ValidationResults = named(
  "ValidationResults",
  z.union([ValidationResult, z.array(ValidationResult)]),
  "One result for one order, or an array of results in input order for a batch.",
);

export const ShippingOrder = named("ShippingOrder", shippingOrderView);
export const ShippingOrderPage = page("ShippingOrderPage", ShippingOrder, "shipping orders");
export const CreateShippingOrdersResponse = named(
  "CreateShippingOrdersResponse",
  // The items are ShippingOrders plus `replaced`: an allOf of the named schema, not a copy of it.
  z.object({
    items: z.array(z.intersection(ShippingOrder, createdShippingOrderView.pick({ replaced: true }))),
    failed: createResponseSchema.shape.failed,
  }) satisfies z.ZodType<CreateResponse>,
  "`items`: the created orders (each with `replaced`); `failed`: the orders the courier refused (`COURIER_REJECTED`, with the courier's own message, ending with the field it named in the request's terms, e.g. `(Recipient.Zip)`), refused the credentials for (`COURIER_AUTH_FAILED`), did not answer in time (`COURIER_TIMEOUT`) or could not be reached for (`COURIER_UNAVAILABLE`). A failed order is not stored; it is kept as a refused attempt.",
);

export const Courier = named("Courier", courierView);
export const CourierList = itemsOf("CourierList", Courier, "courier the platform integrates");
export const SourceConfiguration = named(
  "SourceConfiguration",
  sourceConfigurationView,
  "A ReferenceSource (`id`) and its SourceIdentifiers (`profiles[].id`).",
);
export const SourceConfigurationList = itemsOf(
  "SourceConfigurationList",
  SourceConfiguration,
  "ReferenceSource with its activated SourceIdentifiers; `api`/`default` first",
);
export const CourierProfile = named("CourierProfile", courierProfileView);
export const CourierProfileList = itemsOf(
  "CourierProfileList",
  CourierProfile,
  "courier profile of the account: per courier the default first, then by name",
);

export const CourierProfileCheck = named(
  "CourierProfileCheck",
  checkResultSchema,
  "What the courier said of the profile's credentials: `{ ok: true }`, or `{ ok: false, code, message }` in its words.",
);

export const AccessTokenRequest = named("AccessTokenRequest", issueAccessTokenInput);
export const AccessToken = named(
  "AccessToken",
  z.object({
    accessToken: z
      .string()
      .describe("A JWT; send it as `Authorization: Bearer <accessToken>` to `/api/v2/private/...`."),
    tokenType: z.literal("Bearer"),
    expiresIn: z.number().int().describe("Seconds until the token expires."),
  }) satisfies z.ZodType<AccessTokenResponse>,
);

export const PickupPoint = named(
  "PickupPoint",
  pickupPointView,
  "A pickup point or parcel locker of a courier's directory.",
);
export const PickupPointPage = page("PickupPointPage", PickupPoint, "pickup points");

export const ApiKey = named("ApiKey", apiKeyView, "An API key as lists show it: the key masked.");
export const ApiKeyPage = page("ApiKeyPage", ApiKey, "active API keys");
export const CreatedApiKey = named(
  "CreatedApiKey",
  createdApiKeyView,
  "A new API key: the only answer that carries the full key.",
);
export const CreateApiKeyRequest = named(
  "CreateApiKeyRequest",
  createApiKeyInput,
  "`permissions` defaults to all five; `preventDuplicateOrders` to false; `rateLimitPerMinute` (1..100000) to 600.",
);
export const UpdateApiKeyRequest = named(
  "UpdateApiKeyRequest",
  updateApiKeyInput,
  "Only the fields given change; an empty object changes nothing.",
);

export const Source = named("Source", sourceView, "An activated (ReferenceSource, SourceIdentifier) pair.");
export const SourceList = itemsOf(
  "SourceList",
  Source,
  "activated pair of the account (the built-in `api`/`default` is not listed)",
);
export const ActivateSourceRequest = named("ActivateSourceRequest", activateSourceInput);
export const CreateCourierProfileRequest = named(
  "CreateCourierProfileRequest",
  createCourierProfileInput,
  "`service` must be a service of the courier; `settings` are checked by the courier, unknown keys refused: sandbox `timeoutMs`, " +
    "`trackingStepMinutes`; packeta `apiPassword` (32 characters, secret), `sender` (1..64), `homeDeliveryCarriers` (country → " +
    "Packeta carrier id, for service HOME), `timeoutMs`; ppl `clientId`, `clientSecret` (secret), `environment` (`production`, " +
    "the default, or `test`), `timeoutMs` (1000..60000); no `depot` (PPL says not to use it). Secrets are encrypted at rest and never answered back: views " +
    "show `****` + their last 4 characters, and a PATCH that omits a secret keeps it.",
);
export const UpdateCourierProfileRequest = named(
  "UpdateCourierProfileRequest",
  updateCourierProfileInput,
  "Fields not given stay; at least one is needed. `service` and `settings` are checked by the courier as on create.",
);

export const AuditEvent = named("AuditEvent", auditEventView, "One change to the account's integration, or a sign-in.");
export const AuditEventPage = page("AuditEventPage", AuditEvent, "audit events");

export const Readiness = named(
  "Readiness",
  z.object({
    status: z.enum(["ready", "unavailable"]),
    reason: z.string().optional().describe("Why the instance is not ready (with 503)."),
  }),
  "`ready` when the database answers and every migration of this build is applied, else `unavailable` with the reason (503).",
);

export const Health = named(
  "Health",
  z.object({ status: z.enum(["ok", "unavailable"]) }),
  "`ok` when the database answers, else `unavailable` (with 503).",
);

export const EventSchema = named("Event", eventView);
export const EventFeed = named(
  "EventFeed",
  z.object({
    items: z.array(EventSchema).describe("Oldest first."),
    next: z
      .uuid()
      .nullable()
      .describe(
        "When more events follow this page: the id to pass as `after` for the next page (the last item's). Null when the feed is read to its end for now.",
      ),
  }),
  "A page of the event feed.",
);
export const WebhookEndpoint = named("WebhookEndpoint", webhookEndpointView, "A webhook endpoint, without its secret.");
export const WebhookEndpointPage = page("WebhookEndpointPage", WebhookEndpoint, "webhook endpoints");
export const CreatedWebhookEndpoint = named(
  "CreatedWebhookEndpoint",
  createdWebhookEndpointView,
  "The new endpoint with its signing secret, shown only here.",
);
export const CreateWebhookEndpointRequest = named("CreateWebhookEndpointRequest", createWebhookEndpointInput);
export const UpdateWebhookEndpointRequest = named("UpdateWebhookEndpointRequest", updateWebhookEndpointInput);
export const RotatedWebhookSecret = named("RotatedWebhookSecret", rotatedSecretView);
export const WebhookDelivery = named("WebhookDelivery", webhookDeliveryView, "One event's delivery to one endpoint.");
export const WebhookDeliveryPage = page("WebhookDeliveryPage", WebhookDelivery, "deliveries");
export const TestWebhookAccepted = named(
  "TestWebhookAccepted",
  z.object({ eventId: z.uuid().describe("The `webhook.test` event queued for the endpoint (its `webhook-id`).") }),
);
export const ResendAccepted = named(
  "ResendAccepted",
  z.object({ id: z.uuid().describe("The delivery."), status: z.literal("pending") }),
);

export const Statistics = named(
  "Statistics",
  statisticsView,
  "The account's figures per period and per the keys of `by`; only combinations with something counted appear.",
);
export const Account = named(
  "Account",
  accountView,
  "An account's name and the time zone its statistics count days in.",
);
export const UpdateAccountRequest = named(
  "UpdateAccountRequest",
  updateAccountInput,
  "Fields not given stay; at least one is needed. A new `timeZone` recounts the account's statistics in the background.",
);
export const AccountList = named(
  "AccountList",
  z.object({ items: z.array(accountChoiceView).describe("The user's accounts, by name.") }),
  "The accounts the user belongs to, with the user's role in each.",
);
