import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { rowsOf, type Db, type Executor, type Tx } from "@/db/client";
import {
  courierAttempts,
  parcels,
  refusedAttempts,
  shippingOrders,
  type AttemptOrder,
  type CourierAttemptRow,
  type UnknownOrder,
} from "@/db/schema";
import type { CourierAdapter, CreateOutcome, Shipment, ShipmentRequest } from "@/server/couriers/adapter";
import { findCourier } from "@/server/couriers/registry";
import { logger } from "@/server/observability/logger";
import { persistOrders, type AcceptedOrder, type RejectedOrder } from "../shipping-orders/persist-orders";
import type { OrderRequest } from "../shipping-orders/order-request";
import { cancelPredecessors } from "../shipping-orders/cancel-predecessors";
import { recordRefusedAttempts, type RefusedAttempt } from "../shipping-orders/record-refused-attempts";
import { callCourier } from "./call-courier";
import {
  AttemptTakenOver,
  finishRecovery,
  purgeSettledAttempts,
  recoverAfterMs,
  retryRecoveryLater,
} from "./courier-attempts";
import { profileSettings } from "./stored-shipments";
import { cancelShipments } from "./create-at-courier";

/** A claimed attempt is this recovery's for this long; a recovery that dies leaves it to the next one after it. */
const LEASE_MS = 10 * 60_000;
/** A claim that could not finish (the courier failed, a PPL batch still in process) is asked again this soon. */
const RETRY_MS = 60_000;
/** After this many recoveries that could not finish (the courier kept failing), the attempt is given up, loudly. */
const MAX_RECOVERIES = 50;

export type RecoveryReport = {
  attempts: number;
  adopted: number;
  cancelled: number;
  unknown: number;
  /**
   * Attempts put off: another attempt with one of their references was still running, or the courier found no
   * shipment for an order while it may still be working on its request.
   */
  waiting: number;
};

/** Test hooks: run between deciding and acting, to drive the interleavings with the original request. */
export type RecoveryHooks = { beforeStore?: (attemptId: string) => Promise<void> };

/**
 * Settles create attempts whose outcome the platform does not know (no orphan shipments): an `open` attempt whose
 * process died between the courier's call and the commit, an `unknown` one (the original request answered
 * `outcomeUnknown` for some orders), an `abandoned` one (the request failed after the courier answered). An attempt
 * is claimed by a conditional move to `recovering` (so the original request can no longer settle it, and no other
 * recovery takes it while the lease runs); then, for each order in question, the shipment the courier registered:
 * the recorded answer, else the courier's (`findShipments`: PPL's batch, else a lookup by reference). A shipment
 * that an order already holds (checked by shipping number) is never touched. The rest is **adopted** (stored as
 * the order, with its `created` event, replacing an older live order of its pair as the create would have) while the
 * order's slot is free, else (the partner has since created the reference again, or the request was abandoned)
 * **cancelled** at the courier. The courier is called outside any transaction; adoption and the attempt's move to
 * `recovered` commit together, and only while this claim is still the attempt's.
 */
export async function recoverAttempts(
  db: Db,
  {
    now = new Date(),
    limit = 20,
    hooks = {},
    accountId,
  }: {
    now?: Date;
    limit?: number;
    hooks?: RecoveryHooks;
    /** Tests: one account's attempts only. */ accountId?: string;
  } = {},
): Promise<RecoveryReport> {
  const report: RecoveryReport = { attempts: 0, adopted: 0, cancelled: 0, unknown: 0, waiting: 0 };
  await purgeSettledAttempts(db, now).catch((err: unknown) =>
    logger.warn({ err: String(err) }, "purging settled courier attempts failed"),
  );
  const claimed = rowsOf<{ id: string }>(
    await db.execute(sql`
      update courier_attempts set state = 'recovering',
        claimed_from = case when state = 'recovering' then claimed_from else state end,
        recover_after = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz,
        recoveries = recoveries + 1
      where id in (select id from courier_attempts
        where recover_after <= ${now.toISOString()}::timestamptz
          and state in ('open', 'unknown', 'abandoned', 'recovering')
          ${accountId ? sql`and account_id = ${accountId}::uuid` : sql``}
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
  const claimedIds = attempts.map((a) => a.id);
  for (const attempt of attempts) {
    report.attempts += 1;
    try {
      const outcome = await recoverOne(db, attempt, hooks, now, claimedIds);
      report.adopted += outcome.adopted;
      report.cancelled += outcome.cancelled;
      report.unknown += outcome.unknown;
    } catch (error) {
      if (error instanceof SiblingInFlight) {
        logger.info({ attemptId: attempt.id, sibling: error.siblingId }, error.message);
        await retryRecoveryLater(db, attempt.id, attempt.recoveries, RETRY_MS).catch(() => undefined);
        report.waiting += 1;
        continue;
      }
      if (error instanceof CourierMayStillRegister) {
        logger.info({ attemptId: attempt.id, inMs: error.delayMs }, error.message);
        await retryRecoveryLater(db, attempt.id, attempt.recoveries, error.delayMs).catch(() => undefined);
        report.waiting += 1;
        continue;
      }
      // The courier failed (or cannot tell yet) or the database did: the attempt is asked again in a minute.
      logger.warn({ attemptId: attempt.id, err: String(error) }, "courier attempt recovery failed; retried later");
      if (attempt.recoveries >= MAX_RECOVERIES) {
        logger.error({ attemptId: attempt.id, courier: attempt.courier }, "courier attempt given up after retries");
        await finishRecovery(db, attempt.id, attempt.recoveries, "given_up").catch(() => undefined);
      } else await retryRecoveryLater(db, attempt.id, attempt.recoveries, RETRY_MS).catch(() => undefined);
    }
  }
  return report;
}

/** Shipping numbers that an order (live or not) already holds: such a shipment is the platform's, never recovery's. */
async function heldNumbers(db: Executor, numbers: readonly string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db
    .select({ n: parcels.shippingNumber })
    .from(parcels)
    .where(inArray(parcels.shippingNumber, [...numbers]));
  return new Set(rows.map((r) => r.n));
}

type Case = {
  index: number;
  /** What the request knew: the courier's recorded answer, or the hint to ask it with. */
  answer: Shipment | null;
  hint: Record<string, unknown> | null;
};

/** The orders of the attempt in question, by what it was claimed from. */
function casesOf(attempt: CourierAttemptRow): Case[] {
  const answers = attempt.answers ?? [];
  const answerOf = (index: number): Shipment | null => {
    // By index (one reference may occur under two source pairs); rows of an older version name only the reference.
    const answer =
      answers.find((a) => a.index === index) ??
      answers.find(
        (a) =>
          a.index === undefined &&
          a.referenceNumber === (attempt.orders[index]!.request as { referenceNumber?: string }).referenceNumber,
      );
    return answer
      ? {
          referenceNumber: answer.referenceNumber,
          shippingNumbers: answer.shippingNumbers,
          trackingUrl: answer.trackingUrl,
          courierData: answer.courierData,
        }
      : null;
  };
  const unknown = (list: UnknownOrder[] | null) =>
    (list ?? []).map((u): Case => ({ index: u.index, answer: null, hint: u.hint }));
  switch (attempt.claimedFrom) {
    case "unknown":
      return unknown(attempt.unknownOrders);
    default: {
      // `open` (the process died) or `abandoned` (the request failed after the courier was called): the shipments
      // recorded, and the orders whose outcome was unknown (the courier may have registered them: looked up).
      // Without any record (the answer is written with the unknown orders, and could not be), every order is asked.
      if (attempt.answers === null)
        return attempt.orders.map((_, index): Case => ({ index, answer: null, hint: null }));
      return [
        ...attempt.orders.flatMap((_, index) => {
          const answer = answerOf(index);
          return answer ? [{ index, answer, hint: null }] : [];
        }),
        ...unknown(attempt.unknownOrders),
      ];
    }
  }
}

const requestOf = (o: AttemptOrder) => o.request as unknown as ShipmentRequest;
const orderOf = (o: AttemptOrder) => o.order as unknown as OrderRequest;

/** The attempt's orders whose pair has a live order created after the attempt (the partner created it again). */
async function retriedSince(db: Executor, attempt: CourierAttemptRow, indexes: number[]): Promise<Set<number>> {
  if (indexes.length === 0) return new Set();
  const newer = await db
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
          indexes.map((i) => orderOf(attempt.orders[i]!).ReferenceNumber),
        ),
        gt(shippingOrders.createdAt, attempt.createdAt),
      ),
    );
  return new Set(
    indexes.filter((i) => {
      const o = attempt.orders[i]!;
      return newer.some(
        (n) =>
          n.referenceNumber === orderOf(o).ReferenceNumber &&
          n.referenceSource === o.referenceSource &&
          n.sourceIdentifier === o.sourceIdentifier,
      );
    }),
  );
}

/** Thrown under the reference locks when an order's slot was taken since it was checked: cancelled instead. */
class SlotsTaken extends Error {
  constructor(readonly indexes: Set<number>) {
    super("order slots taken since recovery checked them");
  }
}

/** Thrown when another attempt that may hold one of this attempt's shipments is still running: asked again later. */
class SiblingInFlight extends Error {
  constructor(readonly siblingId: string) {
    super(`attempt ${siblingId} with the same reference is still running; recovery waits for its outcome`);
  }
}

/**
 * Thrown when a lookup found nothing for an order while the courier may still be working on the request that was
 * given up on: asked again once it cannot be any more.
 */
class CourierMayStillRegister extends Error {
  constructor(readonly delayMs: number) {
    super("the courier found no shipment for an order whose request it may still be processing; asked again later");
  }
}

/**
 * When "the courier has no shipment for this order" becomes an answer: once the attempt is as old as the wait that
 * lets recovery assume a process died (`recoverAfterMs`, twice the courier's timeout and a minute). A request the
 * platform stopped waiting for may still be running at the courier: PPL may register a create seconds after the
 * request timed out, so a lookup that finds nothing before then proves nothing, and settling the order as never
 * registered would leave the late shipment at PPL with nobody (an orphan). Before that age an empty lookup puts
 * the attempt off, not settles it.
 */
const absenceConclusiveAt = (attempt: Pick<CourierAttemptRow, "createdAt">, timeoutMs: number) =>
  new Date(attempt.createdAt.getTime() + recoverAfterMs(timeoutMs));

/**
 * Another attempt of the account and courier, carrying one of `references`, that is still running: its request in
 * flight (`open`, not yet due) or claimed by another recovery whose lease runs. A lookup by reference cannot tell
 * its shipment from this attempt's, so recovery must not pick before that attempt's outcome is stored: picking the
 * in-flight request's shipment (the newest) would make the partner's retry lose its slot to an adoption, and leave
 * this attempt's own shipment registered and held by nobody (an orphan). Attempts claimed by
 * this same run are recovered one after another (each sees what the previous one stored), so they do not count.
 */
async function siblingInFlight(
  db: Executor,
  attempt: CourierAttemptRow,
  references: readonly string[],
  now: Date,
  claimedIds: readonly string[],
): Promise<string | null> {
  if (references.length === 0) return null;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select s.id from courier_attempts s
      where s.account_id = ${attempt.accountId}::uuid and s.courier = ${attempt.courier}
        and s.state in ('open', 'recovering') and s.recover_after > ${now.toISOString()}::timestamptz
        and s.id::text not in ${[...claimedIds]}
        and exists (select 1 from jsonb_array_elements(s.orders) o
          where o->'order'->>'ReferenceNumber' in ${[...references]})
      limit 1`),
  );
  return rows[0]?.id ?? null;
}

async function recoverOne(
  db: Db,
  attempt: CourierAttemptRow,
  hooks: RecoveryHooks,
  now: Date,
  claimedIds: readonly string[],
): Promise<{ adopted: number; cancelled: number; unknown: number }> {
  const token = attempt.recoveries;
  const courier = findCourier(attempt.courier);
  const settings = courier ? await profileSettings(db, courier, attempt.courierProfileId) : null;
  if (!courier || !settings) {
    logger.error(
      { attemptId: attempt.id, courier: attempt.courier },
      "courier attempt of an unknown courier or profile",
    );
    await finishRecovery(db, attempt.id, token, "given_up");
    return { adopted: 0, cancelled: 0, unknown: attempt.orders.length };
  }

  // What the courier registered for each order in question. Any courier failure (or a PPL batch still in process)
  // throws before anything is acted on: the whole attempt is asked again later.
  const found = new Map<number, Shipment>();
  const unresolved: number[] = [];
  const taken = new Set<string>();
  const all = casesOf(attempt);
  const cases = all.map((c) => c.index);
  const lookups = all.filter((c) => !c.answer && courier.canLookUpByReference);
  const sibling = await siblingInFlight(
    db,
    attempt,
    lookups.map((c) => orderOf(attempt.orders[c.index]!).ReferenceNumber),
    now,
    claimedIds,
  );
  if (sibling) throw new SiblingInFlight(sibling);
  for (const c of all) {
    let candidates: Shipment[];
    if (c.answer) candidates = [c.answer];
    else if (c.hint || courier.canLookUpByReference)
      candidates = await callCourier(db, courier, "find", settings, (ctx) =>
        courier.findShipments(requestOf(attempt.orders[c.index]!), settings, ctx, c.hint),
      );
    else {
      unresolved.push(c.index);
      continue;
    }
    // "Already stored?": a shipment an order holds (the partner's retry, or an adoption already made) is not ours.
    const held = await heldNumbers(
      db,
      candidates.flatMap((s) => s.shippingNumbers),
    );
    const mine = candidates.find(
      (s) => s.shippingNumbers.length > 0 && s.shippingNumbers.every((n) => !held.has(n) && !taken.has(n)),
    );
    if (mine) {
      mine.shippingNumbers.forEach((n) => taken.add(n));
      found.set(c.index, mine);
    }
  }
  // An order looked up and not found is settled as "not registered" only once the courier cannot still be working on
  // the request: before that, the whole attempt waits (nothing has been acted on yet).
  const notFound = all.filter((c) => !c.answer && !unresolved.includes(c.index) && !found.has(c.index));
  const conclusiveAt = absenceConclusiveAt(attempt, courier.timeoutMs(settings));
  if (notFound.length > 0 && now < conclusiveAt)
    throw new CourierMayStillRegister(conclusiveAt.getTime() - now.getTime());
  if (unresolved.length > 0)
    logger.warn(
      { attemptId: attempt.id, courier: attempt.courier, orders: unresolved.length },
      "courier attempt: outcome unknown and the courier has no lookup by reference; listed for the partner to check",
    );

  const abandoned = attempt.claimedFrom === "abandoned";
  let cancel = new Set<number>(abandoned ? found.keys() : await retriedSince(db, attempt, [...found.keys()]));
  await hooks.beforeStore?.(attempt.id);
  let cancelled = 0;
  for (let round = 0; ; round++) {
    // Cancelled at the courier outside any transaction, each only if still no order holds its numbers.
    const toCancel = [...cancel].filter((i) => found.has(i));
    if (toCancel.length > 0) {
      const held = await heldNumbers(
        db,
        toCancel.flatMap((i) => found.get(i)!.shippingNumbers),
      );
      const outcomes: CreateOutcome[] = toCancel
        .filter((i) => found.get(i)!.shippingNumbers.every((n) => !held.has(n)))
        .map((i) => ({ ok: true, ...found.get(i)! }));
      if (!(await cancelShipments(db, courier, settings, outcomes)))
        throw new Error("the courier did not cancel every shipment");
      cancelled += outcomes.length;
      toCancel.forEach((i) => found.delete(i));
    }
    const adopt = [...found.keys()];
    try {
      const none = cases.filter((i) => !unresolved.includes(i) && !adopt.includes(i) && !cancel.has(i));
      const stored = await store(db, attempt, courier, settings, adopt, found, [...cancel], unresolved, none);
      await cancelPredecessors(db, stored.predecessors);
      if (adopt.length > 0)
        logger.warn(
          { attemptId: attempt.id, courier: attempt.courier, orders: stored.views.map((v) => v.id) },
          "courier attempt recovered: shipments adopted as orders",
        );
      return { adopted: adopt.length, cancelled, unknown: unresolved.length };
    } catch (error) {
      if (!(error instanceof SlotsTaken) || round >= 2) throw error;
      cancel = new Set([...cancel, ...error.indexes]);
    }
  }
}

/**
 * Adopts `adopt` and settles the attempt in one transaction, under the references' locks: each slot is checked again
 * there (a partner's create of the same pair since the first check → SlotsTaken, cancelled instead), and the attempt
 * moves `recovering` → `recovered` only under this claim (else AttemptTakenOver: nothing commits). The refused
 * attempts of adopted orders go (they are orders now); those settled otherwise lose `outcomeUnknown`; orders never
 * reported (the process died) and not resolvable are recorded as refused attempts with `outcomeUnknown`.
 */
async function store(
  db: Db,
  attempt: CourierAttemptRow,
  courier: CourierAdapter,
  settings: Record<string, unknown>,
  adopt: number[],
  found: Map<number, Shipment>,
  cancelled: number[],
  unresolved: number[],
  none: number[],
) {
  const accepted: AcceptedOrder[] = adopt.map((i) => {
    const o = attempt.orders[i]!;
    return {
      order: orderOf(o),
      referenceSource: o.referenceSource,
      sourceIdentifier: o.sourceIdentifier,
      service: o.service,
      shipment: found.get(i)!,
    };
  });
  // Orders the partner never heard of (their process died before answering) that nobody can resolve: listed.
  const unreported = attempt.claimedFrom === "open" ? unresolved : [];
  const message = `${courier.capabilities.name} did not answer; it may have registered the order. Check it in ${courier.capabilities.name}'s own client section before sending it again.`;
  const rejected: RejectedOrder[] = unreported.map((i) => {
    const o = attempt.orders[i]!;
    return {
      order: orderOf(o),
      referenceSource: o.referenceSource,
      sourceIdentifier: o.sourceIdentifier,
      code: "COURIER_TIMEOUT",
      message,
      field: null,
      outcomeUnknown: true,
    };
  });
  const refused: RefusedAttempt[] = unreported.map((i) => {
    const o = attempt.orders[i]!;
    return {
      raw: o.order,
      referenceNumber: orderOf(o).ReferenceNumber,
      referenceSource: o.referenceSource,
      sourceIdentifier: o.sourceIdentifier,
      validationResultId: null,
      code: "COURIER_TIMEOUT",
      message,
      field: null,
      outcomeUnknown: true,
      courierAttemptId: attempt.id,
    };
  });
  const pairOf = (i: number) => {
    const o = attempt.orders[i]!;
    return and(
      eq(refusedAttempts.referenceNumber, orderOf(o).ReferenceNumber),
      eq(refusedAttempts.referenceSource, o.referenceSource),
      eq(refusedAttempts.sourceIdentifier, o.sourceIdentifier),
    );
  };
  return persistOrders(
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
    rejected,
    async (tx: Tx) => {
      const retried = await retriedSince(tx, attempt, adopt);
      if (retried.size > 0) throw new SlotsTaken(retried);
      if (!(await finishRecovery(tx, attempt.id, attempt.recoveries, "recovered", attempt.answers)))
        throw new AttemptTakenOver(attempt.id, "recovering");
      // The refused attempts the request recorded for these orders: their outcome is known now (kept, as counted).
      const mine = eq(refusedAttempts.courierAttemptId, attempt.id);
      const settle = async (indexes: number[], words: string) => {
        for (const i of indexes)
          await tx
            .update(refusedAttempts)
            .set({ outcomeUnknown: false, message: sql`${refusedAttempts.message} || ${` ${words}`}` })
            .where(and(mine, eq(refusedAttempts.outcomeUnknown, true), pairOf(i)));
      };
      const name = courier.capabilities.name;
      await settle(adopt, `Recovered: ${name} had registered it, and the order was created from it.`);
      await settle(cancelled, `Recovered: ${name} had registered it; it was cancelled (the order was created again).`);
      await settle(none, `Recovered: ${name} had not registered it.`);
      await recordRefusedAttempts(
        tx,
        { accountId: attempt.accountId, apiKeyId: attempt.apiKeyId },
        attempt.courier,
        attempt.courierProfileId,
        refused,
      );
    },
  );
}
