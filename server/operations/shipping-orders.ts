import { z } from "zod";
import { notFound } from "@/server/errors";
import { operation, type Content } from "@/server/http/operation";
import {
  CreateShippingOrdersResponse,
  ShippingOrder,
  ShippingOrderBatch,
  ShippingOrderPage,
  ShippingOrderRequest,
  ShippingOrderRequestOrBatch,
  ValidationResults,
} from "@/server/openapi/components";
import {
  errorResult,
  pickupPointResult,
  minimalOrderRequest,
  ORDER_ID,
  orderRequest,
  pageOf,
  PROFILE_ID,
  shippingOrder,
  sourcedOrderRequest,
  warningResult,
} from "@/server/openapi/examples";
import { RECIPIENT_SEARCH } from "@/lib/recipient-search";
import { parseQuery } from "@/server/http/query";
import { assertIdempotencyKey } from "@/server/http/idempotent";
import {
  LIST_ARRAY_PARAMS,
  listShippingOrdersQuery,
  reversedRange,
} from "@/server/services/shipping-orders/list-shipping-orders";
import {
  MAX_BATCH,
  ORDER_BATCH_TYPE,
  orderBatch,
  SINGLE_ORDER_TYPE,
} from "@/server/services/shipping-orders/order-batch";
import { idempotencyRefusals } from "@/server/services/idempotency/idempotent-requests";
import { unknownSourcePairs } from "@/server/services/shipping-orders/check-source-pairs";
import { courierCannotCancel } from "@/server/services/shipping-orders/delete-shipping-order";
import { courierReusedNumber } from "@/server/services/shipping-orders/create-shipping-orders";
import { CourierError } from "@/server/couriers/adapter";
import { duplicateOrdersConflict } from "@/server/services/shipping-orders/persist-orders";
import { noDefaultProfile } from "@/server/services/shipping-orders/resolve-courier-profile";
import { answer, describeParams, pagingParams, thrown } from "./shared";

const TAG = "Shipping orders";

const courierParams = z.object({
  courier_id: z.string().meta({
    param: {
      description: "Courier id as listed by `GET /api/v2/couriers`, e.g. `sandbox`. An unknown courier → 404.",
    },
    example: "sandbox",
  }),
});

/** `?profile=`: any text is taken, the service answers 404 for what is no profile of the courier. */
const profileQuery = z.object({
  profile: z
    .string()
    .optional()
    .meta({
      format: "uuid",
      param: {
        description:
          "Courier profile id (of this account and this courier). Omitted: the account's default profile for the courier. " +
          "An unknown or malformed id, a profile of another courier or account, or no default profile → 404 naming `profile`.",
      },
      example: PROFILE_ID,
    }),
});

/** The body of validate and create; the route reads it as one of these media types (order kept for the 415's text). */
const orderBody = (verb: string): { description: string; content: Content } => ({
  description:
    `The orders to ${verb}. \`${SINGLE_ORDER_TYPE}\` carries one order object; \`${ORDER_BATCH_TYPE}\` an array of 1 to ${MAX_BATCH}; ` +
    "`application/json` is read as one or the other by the body's shape (an array is a batch). The answer mirrors the shape. At most 1 MiB.",
  content: {
    [SINGLE_ORDER_TYPE]: {
      schema: ShippingOrderRequest,
      examples: {
        full: ["An order with cash on delivery", orderRequest],
        minimal: ["Only the required fields", minimalOrderRequest],
        sourced: ["An order from an activated source pair", sourcedOrderRequest],
      },
    },
    [ORDER_BATCH_TYPE]: {
      schema: ShippingOrderBatch,
      examples: { batch: ["Two orders", [orderRequest, minimalOrderRequest]] },
    },
    "application/json": {
      schema: ShippingOrderRequestOrBatch,
      examples: {
        one: ["An object: one order", minimalOrderRequest],
        many: ["An array: a batch", [orderRequest, minimalOrderRequest]],
      },
    },
  },
});

const batchShapeErrors = {
  arrayAsOne: ["An array sent as one order", thrown(() => orderBatch(SINGLE_ORDER_TYPE, []))],
  empty: ["An empty batch", thrown(() => orderBatch(ORDER_BATCH_TYPE, []))],
  tooMany: [`More than ${MAX_BATCH} orders`, thrown(() => orderBatch(ORDER_BATCH_TYPE, Array(MAX_BATCH + 1)))],
} as const;

const courierOrProfileNotFound = {
  description: "Unknown courier, unknown profile, or no default profile for the courier.",
  examples: {
    courier: ["Unknown courier", notFound("Courier dhl-xyz")],
    profile: ["Unknown profile", notFound("Courier profile")],
    noDefault: ["No courier profile at all", noDefaultProfile("sandbox")],
  },
} as const;

const unknownSource = {
  unknownSource: [
    "Source pair not activated",
    unknownSourcePairs([{ pair: "shoptet/eshop-1", field: "ReferenceSource" }]),
  ],
} as const;

const UNKNOWN_SOURCE =
  "A complete ReferenceSource/SourceIdentifier pair matches no activated source of the account (matched exactly, case included); nothing is validated further or created.";

const ORDER_RULES =
  "Rules beyond the schema are the courier's: the service must be one of the courier's, the country one it serves, each parcel's `Weight` at most its limit, " +
  "COD only where the courier collects it and in a currency it accepts, `PickupPoint` required by pickup-point services. " +
  "A batch also reports a ReferenceNumber given twice (`DUPLICATE_IN_REQUEST`).";

export const validateShippingOrdersOp = operation({
  method: "post",
  path: "/api/v2/couriers/{courier_id}/shipping-orders/validate",
  operationId: "validateShippingOrders",
  tag: TAG,
  summary: "Validate shipping orders",
  description:
    "Checks orders against the schema and the courier's rules without creating anything, and answers 200 whether they pass or not. " +
    `${ORDER_RULES} Every validation is recorded for review in the dashboard.`,
  auth: { apiKey: "shipping-orders:validate" },
  params: courierParams,
  query: profileQuery,
  body: orderBody("validate"),
  responses: {
    200: answer(
      "The result of each order (an object for one order, an array in input order for a batch).",
      ValidationResults,
      {
        ok: ["One order, no messages", { status: "OK", referenceNumber: "ORDER-1001", messages: [] }],
        warning: ["One order with a warning", warningResult],
        batch: ["A batch: one failing, one with a warning", [errorResult, warningResult]],
        pickupPoint: ["A closed pickup point, with suggestions", pickupPointResult],
      },
    ),
  },
  errors: {
    400: { examples: batchShapeErrors },
    404: courierOrProfileNotFound,
    422: { description: UNKNOWN_SOURCE, examples: unknownSource },
  },
});

const createdOrder = { ...shippingOrder, replaced: null };
const failedOrders = [
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
];

export const createShippingOrdersOp = operation({
  method: "post",
  path: "/api/v2/couriers/{courier_id}/shipping-orders",
  operationId: "createShippingOrders",
  tag: TAG,
  summary: "Create shipping orders",
  description: [
    "Validates the orders, hands each to the courier and stores the ones it accepts. In this order:",
    "1. Unknown courier or profile → 404.",
    "2. A complete source pair that matches no activated source → 422; nothing created.",
    "3. Any order with validation status `ERROR` → 400 with the validation response (an object or an array, as validate would answer, `application/json`); nothing of the request is created.",
    "4. With a key that has `preventDuplicateOrders`: a ReferenceNumber already used by a live order of the account under a *different* source pair → 409 naming it; nothing created.",
    "5. Each order goes to the courier (up to 16 at once). 200 lists the created orders in `items` and the refused or unanswered ones in `failed`.",
    "",
    "**Replacement**: an existing order with the same ReferenceNumber *and* the same source pair is replaced by its successor: the old order is removed " +
      "(its id answers 404 from then on) and its shipment cancelled with the courier; `replaced` carries its id. If the courier refuses the successor, the previous order stays. " +
      "Concurrent creates of one ReferenceNumber and pair leave exactly one order.",
    "",
    `${ORDER_RULES} Sandbox test triggers: a ReferenceNumber starting with \`COURIER-FAIL\` (or a Note containing \`[courier-fail]\`) is refused; ` +
      "one starting with `COURIER-TIMEOUT` (or `[courier-timeout]`) gets no answer within the profile's timeout.",
    "",
    "**Retries**: send an `Idempotency-Key` header to make a retry safe (see the parameter). Each order of a batch counts as one request against the key's and the account's rate limits.",
  ].join("\n"),
  auth: { apiKey: "shipping-orders:write" },
  params: courierParams,
  query: profileQuery,
  headers: z.object({
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
  }),
  body: orderBody("create"),
  responses: {
    200: answer(
      "The created orders and the ones the courier did not take.",
      CreateShippingOrdersResponse,
      {
        created: ["Created", { items: [createdOrder], failed: [] }],
        replaced: [
          "Created, replacing an order with the same ReferenceNumber and source pair",
          { items: [{ ...createdOrder, replaced: "1f7d3c2b-8a9e-4d6f-b5c4-3e2a1d0f9b8c" }], failed: [] },
        ],
        failed: ["Refused and timed out by the courier", { items: [], failed: failedOrders }],
      },
      {
        "Idempotent-Replayed": {
          description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.",
          required: false,
          schema: { type: "string", example: "true" },
        },
      },
    ),
    400: answer(
      "Validation failed (`application/json`: the validation response, an object or an array as for validate; nothing was created), " +
        "or the body is not JSON or does not fit the Content-Type (`application/problem+json`).",
      ValidationResults,
      {
        one: ["One invalid order", errorResult],
        batch: ["A batch with an invalid order", [errorResult, warningResult]],
      },
    ),
  },
  errors: {
    400: {
      examples: {
        ...batchShapeErrors,
        idempotencyKey: ["A malformed Idempotency-Key", thrown(() => assertIdempotencyKey(""))],
      },
    },
    404: courierOrProfileNotFound,
    409: {
      description:
        "The API key prevents duplicate orders and a ReferenceNumber is already used under a different source pair (nothing was created), " +
        "or a request with the same Idempotency-Key is still running (retry after `Retry-After` seconds).",
      examples: {
        duplicate: ["Duplicate ReferenceNumber", duplicateOrdersConflict(["ORDER-1001"])],
        inProgress: ["Idempotency-Key in use", idempotencyRefusals.inProgress()],
      },
    },
    422: {
      description: `${UNKNOWN_SOURCE} Or the Idempotency-Key was used before with a different request.`,
      examples: {
        ...unknownSource,
        idempotencyKey: ["Idempotency-Key reused", idempotencyRefusals.reused()],
      },
    },
    502: {
      description:
        "The courier answered a shipping number the platform already keeps for another parcel (code `COURIER_UNAVAILABLE`): nothing was " +
        "stored and the shipments of the request were cancelled with the courier; retry.",
      examples: { reusedNumber: ["Courier reused a shipping number", courierReusedNumber("Packeta", null)] },
    },
  },
});

const DATE_TIME =
  "UTC, no zone suffix: `yyyy-MM-ddTHH:mm:ss`. Also accepted: `yyyy-MM-ddTHH:mm`, a fraction `.fff` (1 to 3 digits), the date alone `yyyy-MM-dd`, and a trailing `Z`. " +
  "Inclusive at the precision given: `createdTo=2026-11-21` includes the whole day, `createdTo=2026-11-21T10:00:00` the whole second.";

/** The service's query schema, each parameter described for partners: the route parses with it. */
const listQuery = describeParams(listShippingOrdersQuery.extend(pagingParams), {
  createdFrom: [`Orders created at or after this instant. ${DATE_TIME}`, "2026-11-01T00:00:00"],
  createdTo: [`Orders created at or before this instant. ${DATE_TIME} After createdFrom → 400.`, "2026-11-30"],
  referenceNumbers: ["Orders with these ReferenceNumbers (exact match).", ["ORDER-1001", "ORDER-1002"]],
  ids: ["Orders with these ids; a value that is no UUID → 400.", [ORDER_ID]],
  shippingNumbers: ["Orders with a parcel of these shipping numbers.", ["SBX0000000001"]],
  status: [
    "Orders in these shipping statuses; an unknown status → 400. `CANCELLED` lists the orders a courier reports cancelled " +
      "on its own side (its tracking); an order cancelled through DELETE (or replaced) is removed and never listed.",
    ["CREATED", "IN_TRANSIT"],
  ],
  courier: ["Orders of these couriers (ids as in `GET /api/v2/couriers`); an unknown courier id → 400.", ["sandbox"]],
  courierProfile: ["Orders created with these courier profiles; a value that is no UUID → 400.", [PROFILE_ID]],
  referenceSource: [
    "Orders of this ReferenceSource (exact match, case included); usable alone or with `sourceIdentifier`. `api` for orders sent without a pair.",
    "shoptet",
  ],
  sourceIdentifier: [
    "Orders of this SourceIdentifier (exact match, case included); usable alone or with `referenceSource`. `default` for orders sent without a pair.",
    "eshop-1",
  ],
  recipient: [
    "An extension where the contract is silent: orders whose recipient name contains this text, case and accents ignored " +
      `(\`novak\` finds \`Jana Nováková\`). ${RECIPIENT_SEARCH.min} to ${RECIPIENT_SEARCH.max} characters after trimming; ` +
      "fewer or more → 400 naming `recipient`.",
    "novak",
  ],
});

const badList = (query: string) =>
  thrown(() => parseQuery(listQuery, new URL(`http://x/?${query}`), LIST_ARRAY_PARAMS));

export const listShippingOrdersOp = operation({
  method: "get",
  path: "/api/v2/shipping-orders",
  operationId: "listShippingOrders",
  tag: TAG,
  summary: "List shipping orders",
  description:
    "The account's live orders, newest first, filtered and paged. Filters combine with AND; the values of one array filter with OR (at most 100 values). " +
    "A malformed filter (an id that is no UUID, an unknown status or courier, a bad date, a non-array parameter given twice) → 400 naming the parameter. " +
    "Deleted and replaced orders are not listed. " +
    "Extension where the contract is silent: `recipient`, a search of the recipient's name (case and accents ignored).",
  auth: { apiKey: "shipping-orders:read" },
  query: listQuery,
  arrays: LIST_ARRAY_PARAMS,
  responses: {
    200: answer("A page of orders.", ShippingOrderPage, {
      page: ["The first page", pageOf([shippingOrder])],
      empty: ["Nothing matches", pageOf([])],
    }),
  },
  errors: {
    400: {
      description: "A malformed filter or paging parameter.",
      examples: {
        filters: ["Malformed filters", badList("ids=1&status=LOST")],
        courier: ["Unknown courier", badList("courier=dhl-xyz")],
        date: ["Bad date", badList("createdFrom=yesterday")],
        range: ["createdFrom after createdTo", reversedRange()],
        pageSize: ["pageSize out of range", badList("pageSize=51")],
        recipient: ["recipient search too short", badList("recipient=no")],
      },
    },
  },
});

export const orderIdParams = z.object({
  id: z.uuid().meta({
    param: { description: "The order's id. A malformed id, an order of another account or a deleted order → 404." },
    example: ORDER_ID,
  }),
});

export const getShippingOrderOp = operation({
  method: "get",
  path: "/api/v2/shipping-orders/{id}",
  operationId: "getShippingOrder",
  tag: TAG,
  summary: "Get a shipping order",
  description: "One live order of the account with its parcels and tracking. `labelUrl` is an absolute URL.",
  auth: { apiKey: "shipping-orders:read" },
  params: orderIdParams,
  notFound: "Shipping order",
  responses: {
    200: answer("The order.", ShippingOrder, {
      order: ["An order with two parcels and cash on delivery", shippingOrder],
    }),
  },
});

export const deleteShippingOrderOp = operation({
  method: "delete",
  path: "/api/v2/shipping-orders/{id}",
  operationId: "deleteShippingOrder",
  tag: TAG,
  summary: "Delete a shipping order",
  description:
    "Cancels the shipment with the courier and removes the order: its status becomes `CANCELLED` and from then on its id answers 404 (it is no longer listed). " +
    "A courier that no longer allows the cancel (Packeta `CancelNotAllowedFault`, PPL's refusal) → 409 with `code` " +
    "`COURIER_CANNOT_CANCEL`, and the order stays. A courier that cannot be reached or does not answer in time → 503 " +
    "(`code` `COURIER_UNAVAILABLE` or `COURIER_TIMEOUT`): nothing changes, retry later. The courier is called before " +
    "the order is removed, never inside a database transaction.",
  auth: { apiKey: "shipping-orders:write" },
  params: orderIdParams,
  notFound: "Shipping order",
  responses: { 204: { description: "Cancelled and removed." } },
  errors: {
    409: {
      description: "The courier no longer allows cancelling the shipment; the order is unchanged.",
      examples: {
        tooLate: [
          "Courier no longer allows it",
          courierCannotCancel(
            "Packeta",
            new CourierError("COURIER_CANNOT_CANCEL", "The packet cannot be cancelled any more."),
          ),
        ],
      },
    },
    503: {
      description:
        "The courier could not cancel the shipment (the order is unchanged), or the database is unreachable; retry.",
      examples: {
        courier: ["Courier could not cancel", courierCannotCancel("Sandbox courier")],
      },
    },
  },
});

export const operations = [
  validateShippingOrdersOp,
  createShippingOrdersOp,
  listShippingOrdersOp,
  getShippingOrderOp,
  deleteShippingOrderOp,
];
