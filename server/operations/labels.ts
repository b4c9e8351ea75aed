import { courierLabelUnavailable } from "@/server/services/labels/courier-labels";
import { z } from "zod";
import { operation, type Answer } from "@/server/http/operation";
import { parseQuery } from "@/server/http/query";
import { labelFormatSchema, ZPL_MEDIA_TYPE } from "@/server/labels/label-format";
import { labelRefusals, MAX_LABELS } from "@/server/services/labels/render-shipping-labels";
import { orderIdParams } from "./shipping-orders";
import { thrown } from "./shared";

const TAG = "Labels";

const labels = (filename: string): Answer => ({
  description: "The labels.",
  headers: {
    "Content-Disposition": {
      description: "Named after the order's reference number; a PDF is shown inline, ZPL is an attachment.",
      required: true,
      schema: { type: "string", example: `inline; filename="${filename}"` },
    },
  },
  content: {
    "application/pdf": { schema: { type: "string", format: "binary", contentMediaType: "application/pdf" } },
    [ZPL_MEDIA_TYPE]: {
      schema: { type: "string", contentMediaType: ZPL_MEDIA_TYPE },
      examples: {
        zpl: [
          "A ZPL II label (shortened)",
          "^XA\n^CI28\n^PW812\n^LL1218\n…\n^BY3,3,200^FO70,918^BCN,200,Y,N,N,A^FH\\^FDSBX0000000042^FS\n^XZ",
        ],
      },
    },
  },
});

const format = labelFormatSchema.meta({ param: { description: labelFormatSchema.description }, example: "zpl" });
const formatQuery = z.object({ format });
const unknownFormat = [
  "Unknown format",
  thrown(() => parseQuery(formatQuery, new URL("http://x/?format=png"), [])),
] as const;

const FORMATS =
  "A PDF with an A6 page per parcel (`format=pdf-a6`, the default), four per A4 sheet (`pdf-a4`), or ZPL II for 203 dpi thermal printers " +
  "(`zpl`, answered as `application/x-zpl`); each label carries a scannable Code 128 barcode of the parcel's shipping number. " +
  "Orders of a real courier (Packeta, PPL) get the courier's own labels: fetched from the courier on the first request " +
  "(Packeta `A6 on A6` / `A6 on A4` / `packetLabelZpl` at 203 dpi; PPL's default PDF size / A4 sheet / ZPL at 203 dpi) and " +
  "kept, so later requests never call the courier. For `/labels`, a real courier's parcel is its page of the order's file " +
  "when the file has a page per parcel (A6, ZPL), else the order's whole sheet, once.";

export const getShippingOrderLabelOp = operation({
  method: "get",
  path: "/api/v2/shipping-orders/{id}/label",
  operationId: "getShippingOrderLabel",
  tag: TAG,
  summary: "Get an order's label",
  description: `A label per parcel of the order. ${FORMATS}`,
  auth: { apiKey: "labels:read" },
  params: orderIdParams,
  query: formatQuery,
  notFound: "Shipping order",
  responses: { 200: labels("label-ORDER-1001.pdf") },
  errors: {
    400: { description: "An unknown `format`.", examples: { unknownFormat } },
    502: {
      description:
        "The order's courier could not produce its label (code `COURIER_UNAVAILABLE`); nothing was kept, so the next request asks again.",
      examples: { courier: ["Courier could not produce the label", courierLabelUnavailable("Packeta")] },
    },
  },
});

export const getLabelsOp = operation({
  method: "get",
  path: "/api/v2/labels",
  operationId: "getLabels",
  tag: TAG,
  summary: "Get labels by shipping number",
  description:
    `One file with a label per shipping number, in the order asked (a number given twice is printed once). ${FORMATS} 1 to ${MAX_LABELS} numbers; ` +
    "a number that belongs to no live order of the account → 404 naming it.",
  auth: { apiKey: "labels:read" },
  query: z.object({
    shippingNumbers: z
      .array(z.string())
      .optional()
      .meta({
        param: { description: `Shipping numbers of parcels, 1 to ${MAX_LABELS}.`, required: true },
        example: ["SBX0000000001", "SBX0000000002"],
      }),
    format,
  }),
  arrays: ["shippingNumbers"],
  responses: { 200: labels("labels-ORDER-1001-and-1-more.pdf") },
  errors: {
    400: {
      description: `No shipping number, more than ${MAX_LABELS}, or an unknown \`format\`.`,
      examples: {
        none: ["No shipping number", labelRefusals.none()],
        tooMany: [`More than ${MAX_LABELS}`, labelRefusals.tooMany()],
        unknownFormat,
      },
    },
    502: {
      description:
        "A number's courier could not produce its label (code `COURIER_UNAVAILABLE`); nothing was kept, so the next request asks again.",
      examples: { courier: ["Courier could not produce the label", courierLabelUnavailable("Packeta")] },
    },
    404: {
      description: "A shipping number belongs to no live order of the account.",
      examples: { unknown: ["Unknown shipping number", labelRefusals.unknown(["SBX0000009999"])] },
    },
  },
});

export const operations = [getShippingOrderLabelOp, getLabelsOp];
