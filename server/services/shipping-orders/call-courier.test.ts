import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import { getDb } from "@/db/client";
import { sandboxCourier } from "@/server/couriers/sandbox";
import { readJson, refusedPort } from "@/test/helpers";
import { as, createPartner, order } from "@/test/partner";
import { callCourier } from "./call-courier";

/** A courier whose API cannot be reached: its HTTP call fails as `fetch` fails on a refused connection. */
const unreachable = async (): Promise<never> => {
  await fetch(`http://127.0.0.1:${await refusedPort()}/shipments`, { method: "POST" });
  throw new Error("a closed port answered");
};

beforeEach(() => {
  // callCourier logs every failed courier call; here the failure is the point.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a courier that cannot be reached", () => {
  it("is the outcome COURIER_UNAVAILABLE, not an error", async () => {
    const courier = { ...sandboxCourier, createShipment: unreachable };
    const outcome = await callCourier(
      courier,
      {
        referenceNumber: "NET-1",
        service: "STANDARD",
        note: null,
        pickupPoint: null,
        recipient: { name: "Jana", street: "Dlouhá 12", city: "Praha", zip: "11000", country: "CZ" },
        parcels: [{ weight: 1 }],
        codPrice: null,
        codCurrency: null,
      },
      await getDb(),
      {},
    );
    expect(outcome).toEqual({
      ok: false,
      code: "COURIER_UNAVAILABLE",
      message: "Sandbox courier could not be reached.",
    });
  });

  it("answers create with the order in failed, not a 503 saying the database is down", async () => {
    const partner = await createPartner();
    vi.spyOn(sandboxCourier, "createShipment").mockImplementation(unreachable);
    const response = await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body: order({ ReferenceNumber: "NET-2" }),
      params: { courier_id: "sandbox" },
    });
    expect(response.status).toBe(200);
    const body = await readJson<{ items: unknown[]; failed: { referenceNumber: string; code: string }[] }>(response);
    expect(body.items).toEqual([]);
    expect(body.failed).toEqual([expect.objectContaining({ referenceNumber: "NET-2", code: "COURIER_UNAVAILABLE" })]);
  });
});
