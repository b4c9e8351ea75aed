import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as validate from "@/app/api/v2/couriers/[courier_id]/shipping-orders/validate/route";
import { getDb } from "@/db/client";
import { refusedAttempts, validationResults } from "@/db/schema";
import { as, createPartner, order } from "@/test/partner";
import { STORED_TEXT_MAX } from "./order-request";

const sandbox = { params: { courier_id: "sandbox" } };

/** An order as a careless client sends it: unknown fields, lower-case names, nested values where text belongs. */
const noisy = (referenceNumber: string) => ({
  ...order({ ReferenceNumber: referenceNumber }),
  note: "n".repeat(5000),
  Junk: "j".repeat(50_000),
  Extra: { deep: { deeper: ["x".repeat(10_000)] } },
  ExternalReference: { not: "text" },
  Parcels: Array.from({ length: 30 }, () => ({ weight: 1, Colour: "red" })),
});

describe("what is stored of an order", () => {
  it("keeps the order as the platform reads it in the validation result, not the raw body", async () => {
    const partner = await createPartner();
    const response = await as(partner)(validate.POST, "/api/v2/couriers/sandbox/shipping-orders/validate", {
      body: noisy("STORED-V1"),
      ...sandbox,
    });
    expect(response.status).toBe(200);
    const [row] = await (
      await getDb()
    )
      .select({ body: validationResults.requestBody })
      .from(validationResults)
      .where(
        and(eq(validationResults.accountId, partner.accountId), eq(validationResults.referenceNumber, "STORED-V1")),
      );
    const body = row!.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["ExternalReference", "Note", "Parcels", "Recipient", "ReferenceNumber"]);
    expect(body.Note).toBe("n".repeat(STORED_TEXT_MAX));
    expect(body.ExternalReference).toBeNull();
    expect(body.Parcels).toHaveLength(20);
    expect((body.Parcels as unknown[])[0]).toEqual({ Weight: 1 });
    expect(JSON.stringify(body).length).toBeLessThan(5000);
  });

  it("keeps the order as the platform reads it in a refused attempt", async () => {
    const partner = await createPartner();
    const sent = { ...order({ ReferenceNumber: "COURIER-FAIL-STORED" }), Junk: "j".repeat(50_000), note: "kept" };
    const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: sent,
      ...sandbox,
    });
    expect(response.status).toBe(200);
    const [row] = await (
      await getDb()
    )
      .select({ request: refusedAttempts.request })
      .from(refusedAttempts)
      .where(eq(refusedAttempts.accountId, partner.accountId));
    const request = row!.request as Record<string, unknown>;
    expect(request).not.toHaveProperty("Junk");
    expect(request).toMatchObject({ ReferenceNumber: "COURIER-FAIL-STORED", Note: "kept" });
  });
});
