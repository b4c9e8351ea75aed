import { describe, expect, it } from "vitest";
import { z } from "zod";
import { orderRequestSchema, parcelSchema, recipientSchema } from "@/server/services/shipping-orders/order-request";
import { ORDER_FIELDS } from "./order-fields";

/** The body's leaf paths, read from the schema that validates it, so a field added there without a form field fails. */
function schemaPaths(): string[] {
  const shape = (schema: z.ZodType) => Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape);
  return shape(orderRequestSchema).flatMap((key) =>
    key === "Recipient"
      ? shape(recipientSchema).map((f) => `Recipient.${f}`)
      : key === "Parcels"
        ? shape(parcelSchema).map((f) => `Parcels[].${f}`)
        : [key],
  );
}

describe("order field descriptors", () => {
  it("describe every field of the request body, and nothing else", () => {
    expect(ORDER_FIELDS.map((f) => f.path).sort()).toEqual(schemaPaths().sort());
  });

  it("name each path once", () => {
    const paths = ORDER_FIELDS.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
