import { and, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import * as couriers from "@/app/api/v2/couriers/route";
import * as create from "@/app/api/v2/couriers/[courier_id]/shipping-orders/route";
import * as apiKeyItem from "@/app/api/v2/private/api-keys/[id]/route";
import * as orderItem from "@/app/api/v2/shipping-orders/[id]/route";
import * as list from "@/app/api/v2/shipping-orders/route";
import { getDb } from "@/db/client";
import { parcels, shippingOrders } from "@/db/schema";
import { sandboxCourier } from "@/server/couriers/sandbox";
import type { CreateOutcome } from "@/server/couriers/adapter";
import { printFigures } from "@/test/figures";
import { call, readJson } from "@/test/helpers";
import { as, createPartner, order, type Partner } from "@/test/partner";

/**
 * Faults the in-process database can stage: a courier that does not answer in time in the middle of a
 * batch (also one that answers after we stopped waiting), and an API key revoked while requests are in flight.
 */

type Created = {
  items: { id: string; referenceNumber: string; shippingNumber: string[] }[];
  failed: { referenceNumber: string; code: string }[];
};

const figures = { cases: 0, fiveXx: 0, ordersLost: 0 };
const send = async (response: Promise<Response>): Promise<Response> => {
  const r = await response;
  figures.cases += 1;
  if (r.status >= 500) figures.fiveXx += 1;
  return r;
};
const post = (partner: Partner, body: unknown) =>
  send(
    as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
      body,
      headers: { "content-type": "application/svc.shipping-orders+json" },
      params: { courier_id: "sandbox" },
    }),
  );

async function storedOrders(accountId: string) {
  const db = await getDb();
  return db
    .select()
    .from(shippingOrders)
    .where(and(eq(shippingOrders.accountId, accountId), isNull(shippingOrders.deletedAt)));
}

async function storedParcelNumbers(accountId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ n: parcels.shippingNumber })
    .from(parcels)
    .innerJoin(shippingOrders, eq(shippingOrders.id, parcels.orderId))
    .where(eq(shippingOrders.accountId, accountId));
  return rows.map((r) => r.n).sort();
}

afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => printFigures("faults: courier timeout, key revoked mid-load", figures));

describe("fault: a courier timeout in the middle of a batch", () => {
  it("creates every other order, leaves the timed-out one absent, and stores none of its numbers", async () => {
    // Long enough for the 20 answering orders on a loaded machine; only the one that never answers waits it out.
    const partner = await createPartner({ timeoutMs: 3_000 });
    const batch = Array.from({ length: 21 }, (_, i) =>
      order({
        ReferenceNumber: i === 10 ? "COURIER-TIMEOUT-MID" : `AROUND-${i}`,
        Parcels: [{ Weight: 1 }, { Weight: 2 }],
      }),
    );
    const response = await post(partner, batch);
    expect(response.status).toBe(200);
    const body = await readJson<Created>(response);
    expect(body.failed).toEqual([
      { referenceNumber: "COURIER-TIMEOUT-MID", code: "COURIER_TIMEOUT", message: expect.any(String) },
    ]);
    const expectedRefs = batch.map((o) => o.ReferenceNumber as string).filter((r) => r !== "COURIER-TIMEOUT-MID");
    expect(body.items.map((i) => i.referenceNumber)).toEqual(expectedRefs);

    const stored = await storedOrders(partner.accountId);
    expect(stored.map((o) => o.referenceNumber).sort()).toEqual([...expectedRefs].sort());
    expect(stored.some((o) => o.referenceNumber === "COURIER-TIMEOUT-MID")).toBe(false);
    // Exactly the numbers the answer reports are stored: two per created order, none for the timed-out one.
    expect(await storedParcelNumbers(partner.accountId)).toEqual(body.items.flatMap((i) => i.shippingNumber).sort());
    for (const created of body.items) {
      const got = await send(
        as(partner)(orderItem.GET, `/api/v2/shipping-orders/${created.id}`, { params: { id: created.id } }),
      );
      if (got.status !== 200) figures.ordersLost += 1;
      expect(got.status).toBe(200);
    }
  });

  it("a courier answering after the timeout: the late shipments are not stored, and are cancelled with the courier", async () => {
    const partner = await createPartner({ timeoutMs: 2_000 });
    const original = sandboxCourier.createShipments.bind(sandboxCourier);
    let late: Promise<CreateOutcome[]> | undefined;
    let answered!: () => void;
    const afterTheAnswer = new Promise<void>((resolve) => (answered = resolve));
    vi.spyOn(sandboxCourier, "createShipments").mockImplementation((requests, settings, context) => {
      // A courier that ignores our abort and books the shipments anyway, once the create has answered without them.
      late = afterTheAnswer.then(() =>
        original(requests, settings, { ...context, signal: new AbortController().signal }),
      );
      return late;
    });
    const cancelled: string[][] = [];
    vi.spyOn(sandboxCourier, "cancelShipment").mockImplementation(async ({ shippingNumbers }) => {
      cancelled.push([...shippingNumbers]);
    });

    const response = await post(partner, [
      order({ ReferenceNumber: "LATE-1", Parcels: [{ Weight: 1 }, { Weight: 3 }] }),
      order({ ReferenceNumber: "LATE-2" }),
    ]);
    answered();
    expect(response.status).toBe(200);
    const body = await readJson<Created>(response);
    expect(body.items).toEqual([]);
    expect(body.failed.map((f) => [f.referenceNumber, f.code])).toEqual([
      ["LATE-1", "COURIER_TIMEOUT"],
      ["LATE-2", "COURIER_TIMEOUT"],
    ]);

    const lateOutcomes = await late!;
    const lateNumbers = lateOutcomes.flatMap((o) => (o.ok ? [o.shippingNumbers] : []));
    expect(lateNumbers.map((n) => n.length)).toEqual([2, 1]);
    await vi.waitFor(() => expect(cancelled).toEqual(expect.arrayContaining(lateNumbers)), { timeout: 20_000 });
    const stored = await storedParcelNumbers(partner.accountId);
    for (const n of lateNumbers.flat()) expect(stored).not.toContain(n);
    expect(await storedOrders(partner.accountId)).toEqual([]);
  });
});

describe("fault: a key revoked while requests are in flight", () => {
  it("refuses every request that started after the revocation answered, with 401", async () => {
    const partner = await createPartner({ rateLimitPerMinute: 100_000 });
    type Outcome = { op: string; started: number; status: number; created: string[] };
    const outcomes: Outcome[] = [];
    let stop = false;
    let n = 0;
    const operations = [
      async () => ({ op: "couriers", response: await as(partner)(couriers.GET, "/api/v2/couriers") }),
      async () => ({ op: "list", response: await as(partner)(list.GET, "/api/v2/shipping-orders?pageSize=5") }),
      async () => ({
        op: "create",
        response: await as(partner)(create.POST, "/api/v2/couriers/sandbox/shipping-orders", {
          body: order({ ReferenceNumber: `LOAD-${n++}` }),
          params: { courier_id: "sandbox" },
        }),
      }),
    ];
    const worker = async (w: number) => {
      for (let i = w; !stop; i++) {
        // PGlite answers through microtasks: without a macrotask turn, the timers of vi.waitFor would never run.
        await new Promise((resolve) => setImmediate(resolve));
        const started = performance.now();
        const { op, response } = await operations[i % operations.length]!();
        figures.cases += 1;
        if (response.status >= 500) figures.fiveXx += 1;
        const created =
          op === "create" && response.status === 200 ? (await readJson<Created>(response)).items.map((o) => o.id) : [];
        outcomes.push({ op, started, status: response.status, created });
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    await vi.waitFor(() => expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThanOrEqual(12), {
      timeout: 30_000,
      interval: 20,
    });

    const revocation = await call(apiKeyItem.DELETE, `/api/v2/private/api-keys/${partner.keyId}`, {
      method: "DELETE",
      token: partner.token,
      params: { id: partner.keyId },
    });
    expect(revocation.status).toBe(204);
    const revokedAt = performance.now();
    await vi.waitFor(() => expect(outcomes.filter((o) => o.started > revokedAt).length).toBeGreaterThanOrEqual(30), {
      timeout: 30_000,
      interval: 20,
    });
    stop = true;
    await Promise.all(workers);

    const after = outcomes.filter((o) => o.started > revokedAt);
    expect(after.filter((o) => o.status !== 401)).toEqual([]);
    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    expect(new Set(after.map((o) => o.op))).toEqual(new Set(["couriers", "list", "create"]));
    // Every create that answered 200 is stored; nothing else is.
    const answered = outcomes.flatMap((o) => o.created).sort();
    const stored = (await storedOrders(partner.accountId)).map((o) => o.id).sort();
    figures.ordersLost += answered.filter((id) => !stored.includes(id)).length;
    expect(stored).toEqual(answered);
    const db = await getDb();
    expect(
      await db.select({ id: shippingOrders.id }).from(shippingOrders).where(inArray(shippingOrders.id, answered)),
    ).toHaveLength(answered.length);
  });
});
