import type { OpenAPIRegistry, ZodRequestBody } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  MAX_BATCH,
  ORDER_BATCH_TYPE,
  ORDER_CONTENT_TYPES,
  SINGLE_ORDER_TYPE,
} from "@/server/services/shipping-orders/order-batch";
import {
  CreateShippingOrdersResponse,
  ProblemSchema,
  ShippingOrderBatch,
  ShippingOrderRequest,
  ShippingOrderRequestOrBatch,
  ValidationResults,
} from "../components";
import { minimalOrderRequest, orderRequest, PROFILE_ID, shippingOrder, sourcedOrderRequest } from "../examples";
import {
  apiKeyResponses,
  bodyErrors,
  content,
  integerHeader,
  jsonResponse,
  malformedJson,
  problemExample,
  problemResponse,
  PROBLEM_TYPE,
  stringHeader,
  type Examples,
} from "../responses";
import { apiKeySecurity } from "../security";

const TAG = "Shipping orders";

const courierParams = z.object({
  courier_id: z.string().meta({
    param: {
      description: "Courier id as listed by `GET /api/v2/couriers`, e.g. `sandbox`. An unknown courier → 404.",
    },
    example: "sandbox",
  }),
});

const profileQuery = z.object({
  profile: z
    .uuid()
    .optional()
    .meta({
      param: {
        description:
          "Courier profile id (of this account and this courier). Omitted: the account's default profile for the courier. " +
          "An unknown or malformed id, a profile of another courier or account, or no default profile → 404 naming `profile`.",
      },
      example: PROFILE_ID,
    }),
});

const ACCEPTED = ORDER_CONTENT_TYPES.join(" or ");

const idempotencyHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({
      param: {
        description:
          "Makes a retry safe: 1 to 255 visible ASCII characters, unique per request, scoped to the account. The same key with the same request " +
          "(method, path, query, Content-Type and body) within 24 hours answers the stored response again (same status and body, the same order ids) " +
          "and calls no courier. The same key with a different request → 422; a repeat while the first is still running → 409. " +
          "Answers of 500 and more are not stored, so their retry runs afresh.",
      },
      example: "5c1f0e8a-order-1001",
    }),
});

const orderBody = (verb: string): ZodRequestBody => ({
  required: true,
  description:
    `The orders to ${verb}. \`${SINGLE_ORDER_TYPE}\` carries one order object; \`${ORDER_BATCH_TYPE}\` an array of 1 to ${MAX_BATCH}; ` +
    "`application/json` is read as one or the other by the body's shape (an array is a batch). The answer mirrors the shape. At most 1 MiB.",
  // application/json first: validators and generated clients pick the first media type.
  content: {
    "application/json": {
      schema: ShippingOrderRequestOrBatch,
      examples: {
        one: { summary: "An object: one order", value: minimalOrderRequest },
        many: { summary: "An array: a batch", value: [orderRequest, minimalOrderRequest] },
      },
    },
    [SINGLE_ORDER_TYPE]: {
      schema: ShippingOrderRequest,
      examples: {
        full: { summary: "An order with cash on delivery", value: orderRequest },
        minimal: { summary: "Only the required fields", value: minimalOrderRequest },
        sourced: { summary: "An order from an activated source pair", value: sourcedOrderRequest },
      },
    },
    [ORDER_BATCH_TYPE]: {
      schema: ShippingOrderBatch,
      examples: { batch: { summary: "Two orders", value: [orderRequest, minimalOrderRequest] } },
    },
  },
});

const warningResult = {
  status: "WARNING",
  referenceNumber: "ORDER-1004",
  messages: [
    {
      code: "NO_RECIPIENT_CONTACT",
      severity: "WARNING",
      field: "Recipient.Email",
      message: "Neither Recipient.Email nor Recipient.Phone is given; the courier cannot notify the recipient",
    },
  ],
};

const errorResult = {
  status: "ERROR",
  referenceNumber: "ORDER-1005",
  messages: [
    { code: "REQUIRED", severity: "ERROR", field: "Recipient.Name", message: "Recipient.Name is required" },
    {
      code: "INVALID_FORMAT",
      severity: "ERROR",
      field: "Recipient.Zip",
      message: "Recipient.Zip must look like 110 00 or 11000 for CZ",
    },
    {
      code: "WEIGHT_LIMIT_EXCEEDED",
      severity: "ERROR",
      field: "Parcels[0].Weight",
      message: "Parcels[0].Weight 40 kg exceeds the 31.5 kg limit of Sandbox courier",
    },
  ],
};

const batchShapeErrors: Examples = {
  malformed: malformedJson,
  arrayAsOne: problemExample(
    "An array sent as one order",
    "bad_request",
    `${SINGLE_ORDER_TYPE} carries one order object; send a batch as ${ORDER_BATCH_TYPE}.`,
    [{ field: "body", message: "expected one order object" }],
  ),
  empty: problemExample("An empty batch", "bad_request", "The batch is empty; send 1 to 500 orders.", [
    { field: "body", message: "expected 1 to 500 orders" },
  ]),
  tooMany: problemExample(
    "More than 500 orders",
    "bad_request",
    "A batch holds at most 500 orders; this one has 501.",
    [{ field: "body", message: "more than 500 orders" }],
  ),
};

const courierOrProfileNotFound = problemResponse(
  "Unknown courier, unknown profile, or no default profile for the courier.",
  {
    courier: problemExample("Unknown courier", "not_found", "Courier dhl-xyz not found."),
    profile: problemExample("Unknown profile", "not_found", "Courier profile not found."),
    noDefault: problemExample(
      "No courier profile at all",
      "not_found",
      "The account has no courier profile for sandbox; create one (POST /api/v2/private/courier-profiles) or pass ?profile=.",
      [{ field: "profile", message: "no default courier profile" }],
    ),
  },
);

const unknownSourceDescription =
  "A complete ReferenceSource/SourceIdentifier pair matches no activated source of the account (matched exactly, case included). It takes precedence over field errors; nothing is validated further or created.";
const unknownSourceExamples: Examples = {
  unknownSource: problemExample(
    "Source pair not activated",
    "unknown_source",
    "Source pair shoptet/eshop-1 is not activated for this account; activate it (POST /api/v2/private/sources) or omit ReferenceSource and SourceIdentifier.",
    [{ field: "ReferenceSource", message: "shoptet/eshop-1 is not an activated source pair" }],
  ),
};

const ORDER_RULES =
  "Rules beyond the schema are the courier's: the service must be one of the courier's, the country one it serves, each parcel's `Weight` at most its limit, " +
  "COD only where the courier collects it and in a currency it accepts, `PickupPoint` required by pickup-point services. " +
  "A batch also reports a ReferenceNumber given twice (`DUPLICATE_IN_REQUEST`).";

function registerValidate(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api/v2/couriers/{courier_id}/shipping-orders/validate",
    operationId: "validateShippingOrders",
    tags: [TAG],
    summary: "Validate shipping orders",
    description:
      "Checks orders against the schema and the courier's rules without creating anything, and answers 200 whether they pass or not. " +
      `${ORDER_RULES} Every validation is recorded for review in the dashboard. Requires the permission \`shipping-orders:validate\`.`,
    security: apiKeySecurity("shipping-orders:validate"),
    request: { params: courierParams, query: profileQuery, body: orderBody("validate") },
    responses: apiKeyResponses("shipping-orders:validate", {
      200: jsonResponse(
        "The result of each order (an object for one order, an array in input order for a batch).",
        ValidationResults,
        {
          ok: {
            summary: "One order, no messages",
            value: { status: "OK", referenceNumber: "ORDER-1001", messages: [] },
          },
          warning: { summary: "One order with a warning", value: warningResult },
          batch: { summary: "A batch: one failing, one with a warning", value: [errorResult, warningResult] },
        },
      ),
      400: problemResponse(
        "The body is not JSON, or its shape does not fit the Content-Type, or the batch is empty or over 500 orders.",
        batchShapeErrors,
      ),
      404: courierOrProfileNotFound,
      ...bodyErrors(ACCEPTED),
      422: problemResponse(unknownSourceDescription, unknownSourceExamples),
    }),
  });
}

const createdOrder = { ...shippingOrder, replaced: null };

const createdExamples: Examples = {
  created: { summary: "Created", value: { items: [createdOrder], failed: [] } },
  replaced: {
    summary: "Created, replacing an order with the same ReferenceNumber and source pair",
    value: { items: [{ ...createdOrder, replaced: "1f7d3c2b-8a9e-4d6f-b5c4-3e2a1d0f9b8c" }], failed: [] },
  },
  failed: {
    summary: "Refused and timed out by the courier",
    value: {
      items: [],
      failed: [
        {
          referenceNumber: "COURIER-FAIL-1",
          code: "COURIER_REJECTED",
          message: "The sandbox courier refused the shipment (test trigger).",
        },
        {
          referenceNumber: "COURIER-TIMEOUT-2",
          code: "COURIER_TIMEOUT",
          message: "Sandbox courier did not answer within 10 s.",
        },
      ],
    },
  },
};

const createConflicts: Examples = {
  duplicate: problemExample(
    "Duplicate ReferenceNumber",
    "conflict",
    "ReferenceNumber ORDER-1001 is already used by an order under a different source pair, and this API key prevents duplicate orders.",
    [{ field: "ReferenceNumber", message: "ORDER-1001 is already used under a different source pair" }],
  ),
  inProgress: problemExample(
    "Idempotency-Key in use",
    "conflict",
    "A request with this Idempotency-Key is still being processed; retry shortly.",
    [{ field: "Idempotency-Key", message: "request in progress" }],
  ),
};

function registerCreate(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/api/v2/couriers/{courier_id}/shipping-orders",
    operationId: "createShippingOrders",
    tags: [TAG],
    summary: "Create shipping orders",
    description: [
      "Validates the orders, hands each to the courier and stores the ones it accepts. In this order:",
      "1. Unknown courier or profile → 404.",
      "2. A complete source pair that matches no activated source → 422; nothing created.",
      "3. Any order with validation status `ERROR` → 400 with the validation response (an object or an array, as validate would answer, `application/json`); nothing of the request is created.",
      "4. With a key that has `preventDuplicateOrders`: a ReferenceNumber already used by a live order of the account under a *different* source pair → 409 naming it; nothing created.",
      "5. Each order goes to the courier (up to 16 at once). 200 lists the created orders in `items` and the refused or unanswered ones in `failed` " +
        "(`code` is `COURIER_REJECTED`, `COURIER_TIMEOUT` or `COURIER_UNAVAILABLE`).",
      "",
      "**Replacement**: an existing order with the same ReferenceNumber *and* the same source pair is replaced by its successor: the old order is removed " +
        "(its id answers 404 from then on) and its shipment cancelled with the courier; `replaced` carries its id. If the courier refuses the successor, the previous order stays. " +
        "Concurrent creates of one ReferenceNumber and pair leave exactly one order.",
      "",
      `${ORDER_RULES} Sandbox test triggers: a ReferenceNumber starting with \`COURIER-FAIL\` (or a Note containing \`[courier-fail]\`) is refused; ` +
        "one starting with `COURIER-TIMEOUT` (or `[courier-timeout]`) gets no answer within the profile's timeout.",
      "",
      "**Retries**: send an `Idempotency-Key` header to make a retry safe (see the parameter). Each order of a batch counts as one request against the key's rate limit. " +
        "Requires the permission `shipping-orders:write`.",
    ].join("\n"),
    security: apiKeySecurity("shipping-orders:write"),
    request: { params: courierParams, query: profileQuery, headers: idempotencyHeaders, body: orderBody("create") },
    responses: apiKeyResponses("shipping-orders:write", {
      200: jsonResponse(
        "The created orders and the ones the courier did not take.",
        CreateShippingOrdersResponse,
        createdExamples,
        {
          "Idempotent-Replayed": stringHeader(
            "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.",
            "true",
            false,
          ),
        },
      ),
      400: {
        description:
          "Validation failed (`application/json`: the validation response, an object or an array as for validate; nothing was created), " +
          "or the body is not JSON or does not fit the Content-Type (`application/problem+json`).",
        content: {
          ...content(ValidationResults, {
            one: { summary: "One invalid order", value: errorResult },
            batch: { summary: "A batch with an invalid order", value: [errorResult, warningResult] },
          }),
          ...content(
            ProblemSchema,
            {
              ...batchShapeErrors,
              idempotencyKey: problemExample(
                "A malformed Idempotency-Key",
                "bad_request",
                "Idempotency-Key: must be 1 to 255 visible ASCII characters",
                [{ field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }],
              ),
            },
            PROBLEM_TYPE,
          ),
        },
      },
      404: courierOrProfileNotFound,
      409: problemResponse(
        "The API key prevents duplicate orders and a ReferenceNumber is already used under a different source pair (nothing was created), " +
          "or a request with the same Idempotency-Key is still running (retry after `Retry-After` seconds).",
        createConflicts,
        { "Retry-After": integerHeader("Seconds to wait; sent when the Idempotency-Key is in use.", 1, false) },
      ),
      ...bodyErrors(ACCEPTED),
      422: problemResponse(
        `${unknownSourceDescription} Or the Idempotency-Key was used before with a different request.`,
        {
          ...unknownSourceExamples,
          idempotencyKey: problemExample(
            "Idempotency-Key reused",
            "unprocessable",
            "This Idempotency-Key was used with a different request; use a new key for a new request.",
            [{ field: "Idempotency-Key", message: "reused with a different request" }],
          ),
        },
      ),
    }),
  });
}

/** Validate and create: the two operations that take orders. */
export function registerShippingOrders(registry: OpenAPIRegistry): void {
  registerValidate(registry);
  registerCreate(registry);
}
