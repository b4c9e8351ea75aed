import { v4 as uuidv4 } from "uuid";
import type PgBoss from "pg-boss";
import { queryRows, type Db, type Executor } from "@/db/client";
import { CourierError } from "@/server/couriers/adapter";
import { findCourier } from "@/server/couriers/registry";
import { QUEUES } from "@/server/queue/queues";
import { logger } from "@/server/observability/logger";
import { callCourier } from "../couriers/call-courier";
import { profileSettings } from "../couriers/stored-shipments";
import type { Predecessor } from "./persist-orders";

/**
 * Contract, "Replacement": a replaced order's shipment is cancelled with the courier. The cancel is a call to the
 * courier, so it runs after the commit and outside it; to survive a courier that fails right then (a cancel that
 * times out during an outage would leave the replaced order's shipment registered and held by nobody) or a process
 * that dies before it, the transaction that replaces the order also
 * queues a `courier-cancel` job for it. The request cancels at once and drops the job when the courier said yes;
 * otherwise the worker asks again, with backoff, until the courier answers. A cancel the courier no longer allows
 * (the parcel is on its way) is logged for the operator and not asked again. Cancelling twice is harmless: each
 * adapter answers a cancel of a shipment it already cancelled as done.
 */
export type CourierCancelJob = { predecessor: Predecessor; requestId?: string };

/** The job is a safety net behind the request's own cancel: it waits this long before the worker takes it. */
const CANCEL_JOB_DELAY_S = 60;

/** The sandbox's cancel changes nothing at any courier: no job for it. */
const cancelsAtCourier = (p: Predecessor) => p.courier !== "sandbox" && p.shippingNumbers.length > 0;

/**
 * The jobs to queue with the replacement, one per predecessor a courier holds a shipment of, and the predecessors
 * again, each naming its job (for the request's own cancel to drop when the courier said yes).
 */
export function predecessorCancelJobs(predecessors: readonly Predecessor[]): {
  predecessors: Predecessor[];
  jobs: PgBoss.JobInsert[];
} {
  const jobs: PgBoss.JobInsert[] = [];
  const withJobs = predecessors.map((p): Predecessor => {
    if (!cancelsAtCourier(p)) return p;
    const id = uuidv4();
    jobs.push({
      id,
      name: QUEUES.courierCancel,
      data: { predecessor: { ...p, cancelJobId: null } } satisfies CourierCancelJob,
      startAfter: new Date(Date.now() + CANCEL_JOB_DELAY_S * 1000).toISOString(),
    });
    return { ...p, cancelJobId: id };
  });
  return { predecessors: withJobs, jobs };
}

/**
 * Cancels one replaced order's shipment. Done (returns) when the courier cancelled it, or refuses because it can no
 * longer be cancelled (logged: it is the operator's now); throws when the courier could not answer, to be asked again.
 */
export async function cancelPredecessor(db: Db, p: Predecessor): Promise<void> {
  const adapter = findCourier(p.courier);
  if (!adapter) return;
  const settings = await profileSettings(db, adapter, p.courierProfileId);
  if (!settings) {
    logger.error(
      { orderId: p.id, courier: p.courier },
      "replaced order's courier profile is gone; shipment not cancelled",
    );
    return;
  }
  try {
    await callCourier(db, adapter, "cancel", settings, (ctx) =>
      adapter.cancelShipment(
        {
          referenceNumber: p.referenceNumber,
          shippingNumbers: p.shippingNumbers,
          courierData: p.courierData,
          createdAt: new Date(),
        },
        settings,
        ctx,
      ),
    );
  } catch (error) {
    if (error instanceof CourierError && error.code === "COURIER_CANNOT_CANCEL") {
      logger.error(
        { orderId: p.id, courier: p.courier, shippingNumbers: p.shippingNumbers, err: error.message },
        "replaced order's shipment can no longer be cancelled at the courier",
      );
      return;
    }
    throw error;
  }
}

/** The request's own cancel of the orders it replaced, right after its commit; a failure leaves the job to retry. */
export async function cancelPredecessors(db: Db, predecessors: Predecessor[]): Promise<void> {
  for (const p of predecessors) {
    try {
      await cancelPredecessor(db, p);
    } catch (error) {
      logger.warn(
        { orderId: p.id, courier: p.courier, shippingNumbers: p.shippingNumbers, err: String(error) },
        "replaced order's shipment not cancelled yet; the courier-cancel job asks again",
      );
      continue;
    }
    if (p.cancelJobId) await dropCancelJob(db, p.cancelJobId);
  }
}

/** The job of a cancel that already went through, while it still waits (a failure here only costs a second cancel). */
async function dropCancelJob(db: Executor, id: string): Promise<void> {
  await queryRows(db, `delete from pgboss.job where name = $1 and id = $2 and state = 'created'`, [
    QUEUES.courierCancel,
    id,
  ]).catch((error: unknown) => logger.warn({ jobId: id, err: String(error) }, "courier-cancel job not dropped"));
}
