import { v7 as uuidv7 } from "uuid";
import { and, eq, inArray, isNull, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { shippingOrders, type CourierProfileRow } from "@/db/schema";
import type { CourierAdapter, CreateOutcome } from "@/server/couriers/adapter";
import { courierSettings } from "../couriers/call-courier";
import {
  abandonAttempt,
  AttemptTakenOver,
  closeAbandonedAttempt,
  handOverAnswers,
  recordAnswers,
  recordAttempt,
  settleAttempt,
} from "../couriers/courier-attempts";
import { parcels, type AttemptAnswer, type UnknownOrder } from "@/db/schema";
import { cancelShipments, createAtCourier } from "../couriers/create-at-courier";
import { cancelPredecessors } from "./cancel-predecessors";
import { toShipmentRequest } from "../couriers/shipment-request";
import { AppError } from "@/server/errors";
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
  code: z.string().describe("COURIER_REJECTED, COURIER_AUTH_FAILED, COURIER_TIMEOUT or COURIER_UNAVAILABLE"),
  message: z
    .string()
    .describe(
      "The courier's own words where it gave any; a refusal that names a field ends with it in the request's terms, e.g. `(Recipient.Zip)`.",
    ),
  outcomeUnknown: z
    .literal(true)
    .optional()
    .describe(
      "Present (true) when the request reached the courier and its answer never came (a timeout after sending, a connection cut mid-call, a PPL batch still in process at the timeout): the courier may have registered it. The platform's recovery asks the courier within 5 minutes and adopts the shipment as the order (a `shipping_order.created` event follows) or, when the reference was created again meanwhile, cancels it. Packeta has no lookup: check the packet in Packeta's client section before sending the order again.",
    ),
});

export const createResponseSchema = z.object({
  items: z.array(createdShippingOrderView),
  failed: z.array(failedOrderView),
});
export type CreateResponse = z.infer<typeof createResponseSchema>;

export type CreateCommand = ValidateCommand & { preventDuplicateOrders: boolean; baseUrl: string };

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

  const settings = courierSettings(courier, profile);
  const requests = valid.map((o) => toShipmentRequest(o.order, o.service));
  // A remote courier's call is recorded first (committed on its own): a process that dies between the courier's
  // answer and the commit below leaves an attempt the recovery job adopts or cancels (recover-attempts.ts).
  const attemptId = courier.remote
    ? await recordAttempt(
        db,
        {
          accountId: origin.accountId,
          apiKeyId: origin.apiKeyId ?? null,
          courier: courier.capabilities.id,
          courierProfileId: profile.id,
          baseUrl: command.baseUrl,
          timeoutMs: courier.timeoutMs(settings),
        },
        valid.map((o, i) => ({
          order: o.order as unknown as Record<string, unknown>,
          referenceSource: o.referenceSource,
          sourceIdentifier: o.sourceIdentifier,
          service: o.service,
          request: requests[i] as unknown as Record<string, unknown>,
        })),
      )
    : null;
  const outcomes = await createAtCourier(db, courier, settings, requests);
  const accepted: AcceptedOrder[] = [];
  const failed: CreateResponse["failed"] = [];
  const refused: RefusedAttempt[] = [];
  const rejected: RejectedOrder[] = [];
  const unknownOrders: UnknownOrder[] = [];
  outcomes.forEach((outcome, i) => {
    const o = valid[i]!;
    if (outcome.ok)
      accepted.push({
        order: o.order,
        referenceSource: o.referenceSource,
        sourceIdentifier: o.sourceIdentifier,
        service: o.service,
        shipment: outcome,
      });
    else {
      const { code, field } = outcome;
      // The contract's `failed` item is { referenceNumber, code, message, outcomeUnknown? }: the message names the
      // field. An unknown outcome keeps its attempt open for recovery (settleAttempt), and says so everywhere.
      const message = field && !outcome.message.includes(field) ? `${outcome.message} (${field})` : outcome.message;
      const unknown = outcome.outcomeUnknown === true && attemptId !== null;
      if (unknown) unknownOrders.push({ index: i, hint: outcome.recoveryHint ?? null });
      failed.push({ referenceNumber: o.order.ReferenceNumber, code, message, ...(unknown ? { outcomeUnknown } : {}) });
      refused.push({
        raw: command.batch.orders[i],
        referenceNumber: o.order.ReferenceNumber,
        referenceSource: o.referenceSource,
        sourceIdentifier: o.sourceIdentifier,
        validationResultId: resultIds[i] ?? null,
        code,
        message,
        field,
        outcomeUnknown: unknown,
        courierAttemptId: attemptId,
      });
      rejected.push({
        order: o.order,
        referenceSource: o.referenceSource,
        sourceIdentifier: o.sourceIdentifier,
        code,
        message,
        field,
        outcomeUnknown: unknown,
      });
    }
  });

  let stored: Awaited<ReturnType<typeof persistOrders>>;
  try {
    // The courier's answer, written the moment it arrived: recovery adopts from it without asking the courier.
    if (attemptId && (outcomes.some((o) => o.ok) || unknownOrders.length > 0)) {
      if (!(await recordAnswers(db, attemptId, answersOf(outcomes), unknownOrders)))
        throw new AttemptTakenOver(attemptId, "open");
    }
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
      // Each refused attempt commits with its `courier_rejected` event, or neither is kept; the courier attempt
      // is settled by the same commit (first: when recovery has claimed it, nothing here is stored).
      async (tx) => {
        if (attemptId) await settleAttempt(tx, attemptId, unknownOrders);
        await recordRefusedAttempts(tx, origin, courier.capabilities.id, profile.id, refused);
      },
    );
  } catch (error) {
    if (error instanceof AttemptTakenOver) {
      // Recovery claimed the attempt: it gets the answers; if it finished without them, what no order holds goes.
      const answers = answersOf(outcomes);
      if (!(await handOverAnswers(db, attemptId!, answers, unknownOrders))) {
        const held = await heldShippingNumbers(
          db,
          answers.flatMap((a) => a.shippingNumbers),
        );
        await cancelShipments(
          db,
          courier,
          settings,
          outcomes.filter((o) => o.ok && o.shippingNumbers.every((n) => !held.has(n))),
        );
      }
      return takenOver(db, origin, courier, profile.id, command, valid, outcomes, resultIds, attemptId!);
    }
    // Nothing was stored: the courier must not keep shipments nobody will ever see. Only while the attempt is still
    // this request's (open → abandoned): once recovery has claimed it, the shipments are recovery's to adopt or
    // cancel (it may have adopted them already). Should a cancel fail, recovery cancels what is left; and orders
    // whose outcome is unknown (the courier may have registered them) are left to recovery, which looks them up
    // and cancels what it finds: closing the attempt here would leave such a shipment registered and held by nobody
    // (a create past its timeout whose outcome could not be stored, and the partner's retry registers another).
    const ours = attemptId ? await abandonAttempt(db, attemptId).catch(() => false) : true;
    if (ours) {
      const cancelled = await cancelShipments(db, courier, settings, outcomes);
      if (attemptId && cancelled && unknownOrders.length === 0)
        await closeAbandonedAttempt(db, attemptId).catch(() => undefined);
    }
    throw reusedShippingNumber(error) ? courierReusedNumber(courier.capabilities.name, error) : error;
  }
  if (accepted.length > 0) onRecorded();
  await cancelPredecessors(db, stored.predecessors);
  return { items: stored.views.map((v, i) => ({ ...v, replaced: stored.replaced[i] ?? null })), failed };
}

/**
 * The request took so long that recovery claimed its attempt (it took the process for dead): nothing of it is
 * stored here, and nothing is cancelled: recovery adopts or cancels what the courier registered. Every order is
 * answered in `failed` (what the courier registered with `outcomeUnknown`: its order follows as a
 * `shipping_order.created` event) and kept as a refused attempt.
 */
async function takenOver(
  db: Db,
  origin: ValidationOrigin,
  courier: CourierAdapter,
  profileId: string,
  command: CreateCommand,
  valid: (ValidatedOrder & { order: OrderRequest; service: string })[],
  outcomes: readonly CreateOutcome[],
  resultIds: string[],
  attemptId: string,
): Promise<CreateResponse> {
  const failed: CreateResponse["failed"] = [];
  const refused: RefusedAttempt[] = [];
  const rejected: RejectedOrder[] = [];
  outcomes.forEach((outcome, i) => {
    const o = valid[i]!;
    const unknown = outcome.ok || outcome.outcomeUnknown === true;
    const code = outcome.ok ? "COURIER_TIMEOUT" : outcome.code;
    const field = outcome.ok ? null : outcome.field;
    const message = outcome.ok
      ? `${courier.capabilities.name} answered too late for this request; the platform's recovery settles the order.`
      : field && !outcome.message.includes(field)
        ? `${outcome.message} (${field})`
        : outcome.message;
    failed.push({ referenceNumber: o.order.ReferenceNumber, code, message, ...(unknown ? { outcomeUnknown } : {}) });
    const pair = { referenceSource: o.referenceSource, sourceIdentifier: o.sourceIdentifier };
    refused.push({
      raw: command.batch.orders[i],
      referenceNumber: o.order.ReferenceNumber,
      ...pair,
      validationResultId: resultIds[i] ?? null,
      code,
      message,
      field,
      outcomeUnknown: unknown,
      courierAttemptId: attemptId,
    });
    rejected.push({ order: o.order, ...pair, code, message, field, outcomeUnknown: unknown });
  });
  await persistOrders(
    db,
    {
      accountId: origin.accountId,
      apiKeyId: origin.apiKeyId ?? null,
      courier,
      courierProfileId: profileId,
      settings: {},
      preventDuplicateOrders: false,
      baseUrl: command.baseUrl,
    },
    [],
    [],
    rejected,
    (tx) => recordRefusedAttempts(tx, origin, courier.capabilities.id, profileId, refused),
  );
  return { items: [], failed };
}

const outcomeUnknown = true as const;

/** The courier's shipments of a create, as an attempt records them (by the order's index). */
const answersOf = (outcomes: readonly CreateOutcome[]): AttemptAnswer[] =>
  outcomes.flatMap((o, index) =>
    o.ok
      ? [
          {
            index,
            referenceNumber: o.referenceNumber,
            shippingNumbers: o.shippingNumbers,
            trackingUrl: o.trackingUrl,
            courierData: o.courierData,
          },
        ]
      : [],
  );

async function heldShippingNumbers(db: Db, numbers: string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db
    .select({ n: parcels.shippingNumber })
    .from(parcels)
    .where(inArray(parcels.shippingNumber, numbers));
  return new Set(rows.map((r) => r.n));
}

/** Whether storing failed because a shipping number is stored already (parcels' unique shipping number). */
function reusedShippingNumber(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: string; constraint_name?: string; constraint?: string };
    if (pg.code === "23505" && (pg.constraint_name ?? pg.constraint) === "parcels_shipping_number_key") return true;
  }
  return false;
}

/** A courier answering a number the platform already keeps: its fault, not ours; nothing was stored, retry. */
export const courierReusedNumber = (courierName: string, cause: unknown) =>
  new AppError(
    "bad_gateway",
    `${courierName} answered a shipping number that is already in use; nothing was stored and its shipments were cancelled. Retry the request.`,
    { cause, details: { problemCode: "COURIER_UNAVAILABLE" } },
  );

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
