import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { courierAttempts, parcels, shippingOrders, type AttemptAnswer, type CourierAttemptRow } from "@/db/schema";
import type { CreateOutcome, Shipment, ShipmentRequest } from "@/server/couriers/adapter";
import { findCourier } from "@/server/couriers/registry";
import { logger } from "@/server/observability/logger";
import { persistOrders, type AcceptedOrder } from "../shipping-orders/persist-orders";
import type { OrderRequest } from "../shipping-orders/order-request";
import { cancelPredecessors } from "../shipping-orders/create-shipping-orders";
import { callCourier } from "./call-courier";
import { closeAttempt } from "./courier-attempts";
import { profileSettings } from "./stored-shipments";
import { cancelShipments } from "./create-at-courier";

/** A claimed attempt is this recovery's for this long; a recovery that dies leaves it to the next one after it. */
const LEASE_MS = 10 * 60_000;
/** After this many recoveries that could not finish (the courier kept failing), the attempt is given up, loudly. */
const MAX_RECOVERIES = 50;

export type RecoveryReport = { attempts: number; adopted: number; cancelled: number; unknown: number };

/**
 * Finishes create attempts whose process died between the courier's answer and the commit (no orphan shipments).
 * For each order of an overdue attempt: the shipment the courier registered is the recorded answer, else the one
 * the courier finds by reference (`findShipment`). It is **adopted** (stored as the order, with its `created`
 * event, replacing an older live order of its reference as the create would have) unless the request was
 * abandoned or the partner has since created the order again, in which case it is **cancelled** at the courier.
 * The courier is called outside any transaction; adoption and closing the attempt commit together.
 */
export async function recoverAttempts(
  db: Db,
  { now = new Date(), limit = 20 }: { now?: Date; limit?: number } = {},
): Promise<RecoveryReport> {
  const report: RecoveryReport = { attempts: 0, adopted: 0, cancelled: 0, unknown: 0 };
  const claimed = rowsOf<{ id: string }>(
    await db.execute(sql`
      update courier_attempts set recover_after = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz,
        recoveries = recoveries + 1
      where id in (select id from courier_attempts where recover_after <= ${now.toISOString()}::timestamptz
        order by recover_after limit ${limit} for update skip locked)
      returning id`),
  );
  if (claimed.length === 0) return report;
  const attempts = await db
    .select()
    .from(courierAttempts)
    .where(
      inArray(
        courierAttempts.id,
        claimed.map((c) => c.id),
      ),
    );
  for (const attempt of attempts) {
    report.attempts += 1;
    try {
      const outcome = await recoverOne(db, attempt);
      report.adopted += outcome.adopted;
      report.cancelled += outcome.cancelled;
      report.unknown += outcome.unknown;
    } catch (error) {
      // The courier failed or the database did: the attempt stays, and the next recovery after the lease retries.
      logger.warn({ attemptId: attempt.id, err: String(error) }, "courier attempt recovery failed; retried later");
      if (attempt.recoveries >= MAX_RECOVERIES) {
        logger.error({ attemptId: attempt.id, courier: attempt.courier }, "courier attempt given up after retries");
        await closeAttempt(db, attempt.id);
      }
    }
  }
  return report;
}

async function isKnown(db: Db, shippingNumbers: readonly string[]): Promise<boolean> {
  if (shippingNumbers.length === 0) return false;
  const rows = await db
    .select({ id: parcels.id })
    .from(parcels)
    .where(inArray(parcels.shippingNumber, [...shippingNumbers]))
    .limit(1);
  return rows.length > 0;
}

async function recoverOne(
  db: Db,
  attempt: CourierAttemptRow,
): Promise<{ adopted: number; cancelled: number; unknown: number }> {
  const courier = findCourier(attempt.courier);
  const settings = courier ? await profileSettings(db, courier, attempt.courierProfileId) : null;
  if (!courier || !settings) {
    logger.error(
      { attemptId: attempt.id, courier: attempt.courier },
      "courier attempt of an unknown courier or profile",
    );
    await closeAttempt(db, attempt.id);
    return { adopted: 0, cancelled: 0, unknown: attempt.orders.length };
  }

  // What the courier registered for each order: the answer recorded, else what it finds by reference.
  const found: { index: number; shipment: Shipment }[] = [];
  let unknown = 0;
  for (const [index, o] of attempt.orders.entries()) {
    const request = o.request as unknown as ShipmentRequest;
    if (attempt.answers) {
      const answer = attempt.answers.find((a: AttemptAnswer) => a.referenceNumber === request.referenceNumber);
      if (answer) found.push({ index, shipment: answer });
      continue;
    }
    const shipment = await callCourier(db, courier, "find", settings, (ctx) =>
      courier.findShipment(request, settings, ctx),
    );
    // A lookup by reference may find a shipment the platform already keeps (the partner's retry, stored): not ours.
    if (shipment && !(await isKnown(db, shipment.shippingNumbers))) found.push({ index, shipment });
    else unknown += 1;
  }
  if (!attempt.answers && unknown > 0)
    logger.warn(
      { attemptId: attempt.id, courier: attempt.courier, orders: unknown },
      "courier attempt: the courier found no shipment for some orders (none registered, or no lookup by reference)",
    );

  // The partner has since created the order again (a live order newer than the attempt): ours would be a duplicate.
  const references = found.map((f) => attempt.orders[f.index]!);
  const newer = references.length
    ? await db
        .select({
          referenceNumber: shippingOrders.referenceNumber,
          referenceSource: shippingOrders.referenceSource,
          sourceIdentifier: shippingOrders.sourceIdentifier,
        })
        .from(shippingOrders)
        .where(
          and(
            eq(shippingOrders.accountId, attempt.accountId),
            isNull(shippingOrders.deletedAt),
            inArray(
              shippingOrders.referenceNumber,
              references.map((o) => (o.order as unknown as OrderRequest).ReferenceNumber),
            ),
            gt(shippingOrders.createdAt, attempt.createdAt),
          ),
        )
    : [];
  const retried = (o: (typeof attempt.orders)[number]) =>
    newer.some(
      (n) =>
        n.referenceNumber === (o.order as unknown as OrderRequest).ReferenceNumber &&
        n.referenceSource === o.referenceSource &&
        n.sourceIdentifier === o.sourceIdentifier,
    );
  const toCancel = found.filter((f) => attempt.abandoned || retried(attempt.orders[f.index]!));
  const toAdopt = found.filter((f) => !toCancel.includes(f));

  if (toCancel.length > 0) {
    const outcomes: CreateOutcome[] = toCancel.map((f) => ({ ok: true, ...f.shipment }));
    if (!(await cancelShipments(db, courier, settings, outcomes)))
      throw new Error("the courier did not cancel every shipment");
  }
  const accepted: AcceptedOrder[] = toAdopt.map((f) => {
    const o = attempt.orders[f.index]!;
    return {
      order: o.order as unknown as OrderRequest,
      referenceSource: o.referenceSource,
      sourceIdentifier: o.sourceIdentifier,
      service: o.service,
      shipment: f.shipment,
    };
  });
  const stored = await persistOrders(
    db,
    {
      accountId: attempt.accountId,
      apiKeyId: attempt.apiKeyId,
      courier,
      courierProfileId: attempt.courierProfileId,
      settings,
      preventDuplicateOrders: false,
      baseUrl: attempt.baseUrl,
    },
    accepted,
    [],
    [],
    (tx) => closeAttempt(tx, attempt.id),
  );
  await cancelPredecessors(db, stored.predecessors);
  if (accepted.length > 0)
    logger.warn(
      { attemptId: attempt.id, courier: attempt.courier, orders: stored.views.map((v) => v.id) },
      "courier attempt recovered: shipments adopted as orders",
    );
  return { adopted: accepted.length, cancelled: toCancel.length, unknown };
}
