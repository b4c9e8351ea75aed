import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { MAX_LABELS } from "@/server/services/labels/render-shipping-labels";
import { listShippingOrdersQuery } from "@/server/services/shipping-orders/list-shipping-orders";
import { ShippingOrder, ShippingOrderPage } from "../components";
import { ORDER_ID, PROFILE_ID, shippingOrder } from "../examples";
import { apiKeyResponses, jsonResponse, problemExample, problemResponse, stringHeader, type Res } from "../responses";
import { apiKeySecurity } from "../security";
import { pagingParams } from "./paging";

const ORDERS = "Shipping orders";
const LABELS = "Labels";

const orderIdParams = z.object({
  id: z.uuid().meta({
    param: { description: "The order's id. A malformed id, an order of another account or a deleted order → 404." },
    example: ORDER_ID,
  }),
});

const orderNotFound = problemResponse(
  "No live order of this account has the id (malformed ids and deleted orders included).",
  {
    notFound: problemExample("Unknown order", "not_found", "Shipping order not found."),
  },
);

const repeatable = (name: string) =>
  `Repeat the parameter (\`?${name}=a&${name}=b\`) or separate values with commas (\`?${name}=a,b\`); both mean the same.`;

/**
 * An array parameter: `style: form, explode: true` for the repeated form, and a plain string alternative
 * for the comma form (`?ids=a,b` arrives as the one value `a,b`), so a validator built from the document
 * accepts both forms the API reads.
 */
const list = <T extends z.ZodType>(items: z.ZodArray<T>, name: string, what: string, example: unknown[]) =>
  z
    .union([items, z.string().describe("Comma-separated values.")])
    .optional()
    .meta({
      param: {
        description: `${what} ${repeatable(name)} Values are OR-ed; at most 100.`,
        style: "form",
        explode: true,
      },
      example,
    });

const DATE_TIME =
  "UTC, no zone suffix: `yyyy-MM-ddTHH:mm:ss`. Also accepted: `yyyy-MM-ddTHH:mm`, a fraction `.fff` (1 to 3 digits), the date alone `yyyy-MM-dd`, and a trailing `Z`. " +
  "Inclusive at the precision given: `createdTo=2026-11-21` includes the whole day, `createdTo=2026-11-21T10:00:00` the whole second.";

const shape = listShippingOrdersQuery.shape;

/** The service's query schema, each parameter described for partners. */
const listQuery = listShippingOrdersQuery.extend({
  ...pagingParams,
  createdFrom: shape.createdFrom.meta({
    param: { description: `Orders created at or after this instant. ${DATE_TIME}` },
    example: "2026-11-01T00:00:00",
  }),
  createdTo: shape.createdTo.meta({
    param: { description: `Orders created at or before this instant. ${DATE_TIME} After createdFrom → 400.` },
    example: "2026-11-30",
  }),
  referenceNumbers: list(
    shape.referenceNumbers.unwrap(),
    "referenceNumbers",
    "Orders with these ReferenceNumbers (exact match).",
    ["ORDER-1001", "ORDER-1002"],
  ),
  ids: list(shape.ids.unwrap(), "ids", "Orders with these ids; a value that is no UUID → 400.", [ORDER_ID]),
  shippingNumbers: list(
    shape.shippingNumbers.unwrap(),
    "shippingNumbers",
    "Orders with a parcel of these shipping numbers.",
    ["SBX0000000001"],
  ),
  status: list(shape.status.unwrap(), "status", "Orders in these shipping statuses; an unknown status → 400.", [
    "CREATED",
    "IN_TRANSIT",
  ]),
  courier: list(
    shape.courier.unwrap(),
    "courier",
    "Orders of these couriers (ids as in `GET /api/v2/couriers`); an unknown courier id → 400.",
    ["sandbox"],
  ),
  courierProfile: list(
    shape.courierProfile.unwrap(),
    "courierProfile",
    "Orders created with these courier profiles; a value that is no UUID → 400.",
    [PROFILE_ID],
  ),
  referenceSource: shape.referenceSource.meta({
    param: {
      description:
        "Orders of this ReferenceSource (exact match, case included); usable alone or with `sourceIdentifier`. `api` for orders sent without a pair.",
    },
    example: "shoptet",
  }),
  sourceIdentifier: shape.sourceIdentifier.meta({
    param: {
      description:
        "Orders of this SourceIdentifier (exact match, case included); usable alone or with `referenceSource`. `default` for orders sent without a pair.",
    },
    example: "eshop-1",
  }),
});

const pdf = (description: string, filename: string): Res => ({
  description,
  headers: {
    "Content-Disposition": stringHeader("Shown inline, with a file name for saving.", `inline; filename="${filename}"`),
  },
  content: { "application/pdf": { schema: { type: "string", format: "binary", contentMediaType: "application/pdf" } } },
});

export function registerOrdersAndLabels(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/api/v2/shipping-orders",
    operationId: "listShippingOrders",
    tags: [ORDERS],
    summary: "List shipping orders",
    description:
      "The account's live orders, newest first, filtered and paged. Filters combine with AND; the values of one array filter with OR. " +
      "A malformed filter (an id that is no UUID, an unknown status or courier, a bad date, a non-array parameter given twice) → 400 naming the parameter. " +
      "`itemsCount` is the number of orders matching across all pages. Deleted and replaced orders are not listed. Requires the permission `shipping-orders:read`.",
    security: apiKeySecurity("shipping-orders:read"),
    request: { query: listQuery },
    responses: apiKeyResponses("shipping-orders:read", {
      200: jsonResponse("A page of orders.", ShippingOrderPage, {
        page: {
          summary: "The first page",
          value: {
            page: 1,
            pageSize: 20,
            totalPages: 1,
            nextPage: false,
            previousPage: false,
            itemsCount: 1,
            items: [shippingOrder],
          },
        },
        empty: {
          summary: "Nothing matches",
          value: {
            page: 1,
            pageSize: 20,
            totalPages: 0,
            nextPage: false,
            previousPage: false,
            itemsCount: 0,
            items: [],
          },
        },
      }),
      400: problemResponse("A malformed filter or paging parameter.", {
        filters: problemExample(
          "Malformed filters",
          "bad_request",
          "ids: must be UUIDs; status: must be one of CREATED, HANDED_OVER, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, RETURNED, CANCELLED",
          [
            { field: "ids", message: "must be UUIDs" },
            {
              field: "status",
              message:
                "must be one of CREATED, HANDED_OVER, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, RETURNED, CANCELLED",
            },
          ],
        ),
        courier: problemExample("Unknown courier", "bad_request", "courier: is not a known courier id", [
          { field: "courier", message: "is not a known courier id" },
        ]),
        date: problemExample("Bad date", "bad_request", "createdFrom: must be a UTC date-time yyyy-MM-ddTHH:mm:ss", [
          { field: "createdFrom", message: "must be a UTC date-time yyyy-MM-ddTHH:mm:ss" },
        ]),
        range: problemExample(
          "createdFrom after createdTo",
          "bad_request",
          "createdFrom must not be after createdTo.",
          [{ field: "createdFrom", message: "after createdTo" }],
        ),
        pageSize: problemExample(
          "pageSize out of range",
          "bad_request",
          "pageSize: pageSize must be between 1 and 50",
          [{ field: "pageSize", message: "pageSize must be between 1 and 50" }],
        ),
      }),
    }),
  });

  registry.registerPath({
    method: "get",
    path: "/api/v2/shipping-orders/{id}",
    operationId: "getShippingOrder",
    tags: [ORDERS],
    summary: "Get a shipping order",
    description:
      "One live order of the account with its parcels and tracking. `labelUrl` is an absolute URL. Requires the permission `shipping-orders:read`.",
    security: apiKeySecurity("shipping-orders:read"),
    request: { params: orderIdParams },
    responses: apiKeyResponses("shipping-orders:read", {
      200: jsonResponse("The order.", ShippingOrder, {
        order: { summary: "An order with two parcels and cash on delivery", value: shippingOrder },
      }),
      404: orderNotFound,
    }),
  });

  registry.registerPath({
    method: "delete",
    path: "/api/v2/shipping-orders/{id}",
    operationId: "deleteShippingOrder",
    tags: [ORDERS],
    summary: "Delete a shipping order",
    description:
      "Cancels the shipment with the courier and removes the order: its status becomes `CANCELLED` and from then on its id answers 404 (it is no longer listed). " +
      "If the courier cannot cancel, nothing changes and the answer is 503: retry later. Requires the permission `shipping-orders:write`.",
    security: apiKeySecurity("shipping-orders:write"),
    request: { params: orderIdParams },
    responses: apiKeyResponses("shipping-orders:write", {
      204: { description: "Cancelled and removed." },
      404: orderNotFound,
      503: problemResponse(
        "The courier could not cancel the shipment (the order is unchanged), or the database is unreachable; retry.",
        {
          courier: problemExample(
            "Courier could not cancel",
            "unavailable",
            "Sandbox courier could not cancel the shipment; the order is unchanged. Retry later.",
          ),
          database: problemExample(
            "Database unreachable",
            "unavailable",
            "The service is temporarily unavailable; retry shortly. Request id 8d2b6f0a-51c4-4c1e-a0a5-6f3e2d9b7c10.",
          ),
        },
      ),
    }),
  });

  registry.registerPath({
    method: "get",
    path: "/api/v2/shipping-orders/{id}/label",
    operationId: "getShippingOrderLabel",
    tags: [LABELS],
    summary: "Get an order's label",
    description:
      "A PDF with one A6 page per parcel, each with a scannable Code 128 barcode of the parcel's shipping number. Requires the permission `labels:read`.",
    security: apiKeySecurity("labels:read"),
    request: { params: orderIdParams },
    responses: apiKeyResponses("labels:read", {
      200: pdf("The label PDF.", `label-${ORDER_ID}.pdf`),
      404: orderNotFound,
    }),
  });

  registry.registerPath({
    method: "get",
    path: "/api/v2/labels",
    operationId: "getLabels",
    tags: [LABELS],
    summary: "Get labels by shipping number",
    description:
      `One PDF with an A6 page per shipping number, in the order asked (a number given twice is printed once). 1 to ${MAX_LABELS} numbers; ` +
      "a number that belongs to no live order of the account → 404 naming it. Requires the permission `labels:read`.",
    security: apiKeySecurity("labels:read"),
    request: {
      query: z.object({
        shippingNumbers: z
          .union([z.array(z.string()).min(1).max(MAX_LABELS), z.string().min(1).describe("Comma-separated values.")])
          .meta({
            param: {
              description: `Shipping numbers of parcels, 1 to ${MAX_LABELS}. ${repeatable("shippingNumbers")}`,
              style: "form",
              explode: true,
            },
            example: ["SBX0000000001", "SBX0000000002"],
          }),
      }),
    },
    responses: apiKeyResponses("labels:read", {
      200: pdf("The labels PDF.", "labels.pdf"),
      400: problemResponse("No shipping number, or more than 100.", {
        none: problemExample(
          "No shipping number",
          "bad_request",
          "shippingNumbers: give at least one shipping number",
          [{ field: "shippingNumbers", message: "give at least one shipping number" }],
        ),
        tooMany: problemExample("More than 100", "bad_request", "shippingNumbers: at most 100 shipping numbers", [
          { field: "shippingNumbers", message: "at most 100 shipping numbers" },
        ]),
      }),
      404: problemResponse("A shipping number belongs to no live order of the account.", {
        unknown: problemExample("Unknown shipping number", "not_found", "Unknown shipping number SBX0000009999.", [
          { field: "shippingNumbers", message: "unknown: SBX0000009999" },
        ]),
      }),
    }),
  });
}
