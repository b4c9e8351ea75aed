import { v7 as uuidv7 } from "uuid";
import { openProfileSettings } from "@/server/secrets/profile-settings";
import { and, eq, inArray, isNull, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { courierProfiles, shippingOrders, type CourierProfileRow } from "@/db/schema";
import { mapLimit } from "@/server/concurrency";
import { findCourier } from "@/server/couriers/registry";
import type { CourierAdapter, CourierShipmentRequest } from "@/server/couriers/types";
import { AppError } from "@/server/errors";
import { callCourier, cancelQuietly } from "./call-courier";
import type { OrderRequest } from "./order-request";
import {
  crossSourceClashes,
  duplicateOrdersConflict,
  incomingReferences,
  persistOrders,
  type AcceptedOrder,
  type RejectedOrder,
} from "./persist-orders";
import { recordRefusedAttempts, type RefusedAttempt } from "./record-refused-attempts";
import { validationResultsInsert, type ValidationOrigin } from "./record-validation-results";
import { shippingOrderView } from "./shipping-order-view";
import { responseOf, validateBatch, type ValidateCommand } from "./validate-shipping-orders";
import type { ValidatedOrder } from "./validate-order";

export const createdShippingOrderView = shippingOrderView.extend({
  replaced: z
    .uuid()
    .nullable()
    .describe("Id of the order this one replaced (same ReferenceNumber and source pair), or null."),
});

export const failedOrderView = z.object({
  referenceNumber: z.string(),
  code: z.string().describe("COURIER_REJECTED, COURIER_TIMEOUT or COURIER_UNAVAILABLE"),
  message: z.string(),
});

export const createResponseSchema = z.object({
  items: z.array(createdShippingOrderView),
  failed: z.array(failedOrderView),
});
export type CreateResponse = z.infer<typeof createResponseSchema>;

export type CreateCommand = ValidateCommand & { preventDuplicateOrders: boolean; baseUrl: string };

/** Parallel courier calls per request: enough to hide courier latency, few enough to be polite. */
const COURIER_CONCURRENCY = 16;

/**
 * `POST /couriers/{courier}/shipping-orders`, in the contract's order: 404 courier/profile → 422 unknown
 * source pair → 400 validation errors (nothing created) → 409 duplicate prevention → courier → store.
 * Orders the courier refused or did not answer in time are reported in `failed` and kept as refused attempts
 * (nothing else would show them); the rest are stored in one transaction, replacing their predecessors,
 * whose shipments are cancelled after the commit.
 */
export async function createShippingOrders(
  db: Db,
  origin: ValidationOrigin,
  command: CreateCommand,
): Promise<CreateResponse> {
  const { courier, profile, orders } = await validateBatch(db, origin, command);
  // Chosen here so refused attempts can name their validation record before the statement that stores it runs.
  const resultIds = orders.map(() => uuidv7());
  const validationRecord = validationResultsInsert(
    origin,
    "create",
    courier.capabilities.id,
    profile.id,
    command.batch.orders,
    orders,
    resultIds,
  );
  // Recorded in the statement that stores the orders (one commit per create, not two); on every other way out
  // (invalid, 409, all refused by the courier, storing failed) on its own.
  let recorded = false;
  try {
    return await createValidated(db, origin, command, courier, profile, orders, resultIds, validationRecord, () => {
      recorded = true;
    });
  } finally {
    if (!recorded) await db.execute(validationRecord);
  }
}

async function createValidated(
  db: Db,
  origin: ValidationOrigin,
  command: CreateCommand,
  courier: CourierAdapter,
  profile: CourierProfileRow,
  orders: ValidatedOrder[],
  resultIds: string[],
  validationRecord: SQL,
  onRecorded: () => void,
): Promise<CreateResponse> {
  if (orders.some((o) => o.response.status === "ERROR")) {
    throw new AppError("validation_failed", "One or more orders are invalid; nothing was created.", {
      details: { result: responseOf(orders, command.batch.many) },
    });
  }
  const valid = orders as (ValidatedOrder & { order: OrderRequest; service: string })[];
  if (command.preventDuplicateOrders) await assertNoDuplicateOrders(db, origin.accountId, valid);

  const settings = openProfileSettings(profile.settings);
  await courier.prepareShipments?.(
    valid.reduce((n, o) => n + o.order.Parcels.length, 0),
    { db, settings },
  );
  const outcomes = await mapLimit(valid, COURIER_CONCURRENCY, (o) =>
    callCourier(courier, toCourierRequest(o), db, settings),
  );
  const accepted: AcceptedOrder[] = [];
  const failed: CreateResponse["failed"] = [];
  const refused: RefusedAttempt[] = [];
  const rejected: RejectedOrder[] = [];
  outcomes.forEach((outcome, i) => {
    const o = valid[i]!;
    if (outcome.ok)
      accepted.push({
        order: o.order,
        referenceSource: o.referenceSource,
        sourceIdentifier: o.sourceIdentifier,
        service: o.service,
        shipment: outcome.shipment,
      });
    else {
      failed.push({ referenceNumber: o.order.ReferenceNumber, code: outcome.code, message: outcome.message });
      refused.push({
        raw: command.batch.orders[i],
        referenceNumber: o.order.ReferenceNumber,
        referenceSource: o.referenceSource,
        sourceIdentifier: o.sourceIdentifier,
        validationResultId: resultIds[i] ?? null,
        code: outcome.code,
        message: outcome.message,
      });
      rejected.push({
        order: o.order,
        referenceSource: o.referenceSource,
        sourceIdentifier: o.sourceIdentifier,
        code: outcome.code,
        message: outcome.message,
      });
    }
  });

  let stored: Awaited<ReturnType<typeof persistOrders>>;
  try {
    stored = await persistOrders(
      db,
      {
        accountId: origin.accountId,
        apiKeyId: origin.apiKeyId ?? null,
        courier,
        courierProfileId: profile.id,
        settings,
        preventDuplicateOrders: command.preventDuplicateOrders,
        baseUrl: command.baseUrl,
      },
      accepted,
      [validationRecord],
      rejected,
      // Each refused attempt commits with its `courier_rejected` event, or neither is kept.
      (tx) => recordRefusedAttempts(tx, origin, courier.capabilities.id, profile.id, refused),
    );
  } catch (error) {
    // Nothing was stored: the courier must not keep shipments nobody will ever see.
    await cancelQuietly(
      courier,
      accepted.map((a) => a.shipment.shippingNumbers),
      db,
      settings,
    );
    throw error;
  }
  if (accepted.length > 0) onRecorded();
  // A replaced order's shipment is cancelled with its own profile's credentials (after the commit, outside it).
  for (const p of stored.predecessors) {
    const adapter = findCourier(p.courier);
    if (!adapter) continue;
    const [own] = await db
      .select({ settings: courierProfiles.settings })
      .from(courierProfiles)
      .where(eq(courierProfiles.id, p.courierProfileId));
    await cancelQuietly(adapter, [p.shippingNumbers], db, openProfileSettings(own?.settings ?? {}));
  }
  return { items: stored.views.map((v, i) => ({ ...v, replaced: stored.replaced[i] ?? null })), failed };
}

/** Duplicate prevention before any courier call: a ReferenceNumber live under another source pair → 409. */
async function assertNoDuplicateOrders(
  db: Db,
  accountId: string,
  orders: (ValidatedOrder & { order: OrderRequest })[],
): Promise<void> {
  const refs = [...new Set(orders.map((o) => o.order.ReferenceNumber))];
  const live = await db
    .select({
      referenceNumber: shippingOrders.referenceNumber,
      referenceSource: shippingOrders.referenceSource,
      sourceIdentifier: shippingOrders.sourceIdentifier,
    })
    .from(shippingOrders)
    .where(
      and(
        eq(shippingOrders.accountId, accountId),
        isNull(shippingOrders.deletedAt),
        inArray(shippingOrders.referenceNumber, refs),
      ),
    );
  const clashes = crossSourceClashes(live, incomingReferences(orders));
  if (clashes.length > 0) throw duplicateOrdersConflict(clashes);
}

function toCourierRequest(o: ValidatedOrder & { order: OrderRequest; service: string }): CourierShipmentRequest {
  const r = o.order.Recipient;
  return {
    referenceNumber: o.order.ReferenceNumber,
    service: o.service,
    note: o.order.Note ?? null,
    pickupPoint: o.order.PickupPoint ?? null,
    recipient: { name: r.Name, street: r.Street, city: r.City, zip: r.Zip, country: r.Country },
    parcels: o.order.Parcels.map((p) => ({ weight: p.Weight })),
    codPrice: o.order.CodPrice ?? null,
    codCurrency: o.order.CodCurrency ?? null,
  };
}
