import { AppError } from "@/server/errors";

export const SINGLE_ORDER_TYPE = "application/svc.shipping-order+json";
export const ORDER_BATCH_TYPE = "application/svc.shipping-orders+json";
export const ORDER_CONTENT_TYPES = [SINGLE_ORDER_TYPE, ORDER_BATCH_TYPE, "application/json"] as const;
export const MAX_BATCH = 500;

/** The orders of a request and whether it was a batch (the answer mirrors the shape). */
export type OrderBatch = { orders: unknown[]; many: boolean };

/**
 * The shape of a validate/create body. The vendor types fix it; `application/json` is read by the body's
 * shape (array → batch, anything else → one order).
 */
export function orderBatch(mediaType: string, body: unknown): OrderBatch {
  const many = mediaType === ORDER_BATCH_TYPE || (mediaType !== SINGLE_ORDER_TYPE && Array.isArray(body));
  if (!many) {
    if (Array.isArray(body)) {
      throw new AppError(
        "bad_request",
        `${SINGLE_ORDER_TYPE} carries one order object; send a batch as ${ORDER_BATCH_TYPE}.`,
        {
          errors: [{ field: "body", message: "expected one order object" }],
        },
      );
    }
    return { orders: [body], many: false };
  }
  if (!Array.isArray(body)) {
    throw new AppError("bad_request", `${ORDER_BATCH_TYPE} carries an array of orders.`, {
      errors: [{ field: "body", message: "expected an array of orders" }],
    });
  }
  if (body.length === 0) {
    throw new AppError("bad_request", "The batch is empty; send 1 to 500 orders.", {
      errors: [{ field: "body", message: "expected 1 to 500 orders" }],
    });
  }
  if (body.length > MAX_BATCH) {
    throw new AppError("bad_request", `A batch holds at most ${MAX_BATCH} orders; this one has ${body.length}.`, {
      errors: [{ field: "body", message: `more than ${MAX_BATCH} orders` }],
    });
  }
  return { orders: body, many: true };
}
