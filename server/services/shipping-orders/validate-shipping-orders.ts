import type { Executor } from "@/db/client";
import { COURIERS_WITH_POINTS } from "@/db/schema";
import type { CourierAdapter, ShipmentRequest } from "@/server/couriers/adapter";
import {
  lookUpDirectory,
  pickupPointMessages,
  suggestionRequest,
  suggestPickupPoints,
  type BatchDirectory,
  type SuggestionRequest,
} from "../pickup-points/check-pickup-points";
import { checkSourcePairs } from "./check-source-pairs";
import type { OrderBatch } from "./order-batch";
import { recordValidationResults, type ValidationOrigin } from "./record-validation-results";
import { resolveCourierProfile } from "./resolve-courier-profile";
import { markDuplicatesInRequest, validateOrder, type ValidatedOrder } from "./validate-order";
import type { ValidationMessage } from "@/lib/validation-message";
import { statusOf, type ValidationResponse } from "./validation-messages";
import { courierSettings } from "../couriers/call-courier";
import { toShipmentRequest } from "../couriers/shipment-request";

export type ValidateCommand = { courierId: string; profileId?: string | null; batch: OrderBatch };

/** Validation shared by validate and create: courier and profile (404), source pairs (422), then every rule. */
export async function validateBatch(db: Executor, origin: ValidationOrigin, command: ValidateCommand) {
  const { courier, profile } = await resolveCourierProfile(db, origin.accountId, command.courierId, command.profileId);
  const settings = courierSettings(courier, profile);
  const orders = command.batch.orders.map((raw) =>
    validateOrder(raw, courier.capabilities, { service: profile.service }),
  );
  // The courier's own rules run only on what the contract's rules let through: a parsed order of an offered service.
  const checked = orders.flatMap((validated) =>
    validated.order && validated.service && courier.capabilities.services.some((s) => s.code === validated.service)
      ? [{ validated, request: toShipmentRequest(validated.order, validated.service) }]
      : [],
  );
  const directory = await lookUpBatchDirectory(db, courier, settings, checked);
  for (const { validated, request } of checked) {
    // A courier's rule the platform's own rules already reported (same code at the same field) is said once.
    const said = new Set(validated.response.messages.map((m) => `${m.code} ${m.field}`));
    const messages = courier
      .validate(request, settings, directory?.facts)
      .filter((m) => !said.has(`${m.code} ${m.field}`));
    addMessages(validated, messages);
  }
  if (directory) await checkPickupPoints(db, courier.capabilities.id, directory);
  await checkSourcePairs(db, origin.accountId, orders, command.batch.many);
  if (command.batch.many) markDuplicatesInRequest(orders);
  return { courier, profile, orders };
}

type Checked = { validated: ValidatedOrder; request: ShipmentRequest };

function addMessages(validated: ValidatedOrder, messages: ValidationMessage[]) {
  if (messages.length === 0) return;
  validated.response.messages.push(...messages);
  validated.response.status = statusOf(validated.response.messages);
}

/** The orders whose `PickupPoint` the courier's directory decides (its service delivers to a point). */
function pointOrders(courier: CourierAdapter, checked: readonly Checked[]): Checked[] {
  if (!(COURIERS_WITH_POINTS as readonly string[]).includes(courier.capabilities.id)) return [];
  const pointServices = new Set(courier.capabilities.services.filter((s) => s.requiresPickupPoint).map((s) => s.code));
  return checked.filter(
    ({ validated, request }) =>
      pointServices.has(request.service) &&
      request.pickupPoint !== null &&
      // A point id the courier's own format refused (Packeta: digits) is not looked up again.
      !validated.response.messages.some((m) => m.field === "PickupPoint" && m.severity === "ERROR"),
  );
}

/** One query for the whole batch (points named, carriers asked for, sync state); none when nothing is named. */
async function lookUpBatchDirectory(
  db: Executor,
  courier: CourierAdapter,
  settings: Record<string, unknown>,
  checked: readonly Checked[],
): Promise<{ facts: BatchDirectory; pointOrders: Checked[] } | null> {
  const withPoints = pointOrders(courier, checked);
  const carrierIds = checked.flatMap(({ request }) => courier.directoryKeys?.(request, settings).carrier ?? []);
  if (withPoints.length === 0 && carrierIds.length === 0) return null;
  const pointIds = withPoints.map(({ request }) => request.pickupPoint!);
  return { facts: await lookUpDirectory(db, courier.capabilities.id, pointIds, carrierIds), pointOrders: withPoints };
}

/**
 * The contract's pickup-point rules on every order naming a point, then the suggestions for all orders that failed
 * them in one query. A directory never synced: a warning instead, nothing refused.
 */
async function checkPickupPoints(
  db: Executor,
  courierId: string,
  directory: { facts: BatchDirectory; pointOrders: Checked[] },
) {
  const { facts } = directory;
  const failed: { validated: ValidatedOrder; messages: ValidationMessage[]; request: SuggestionRequest }[] = [];
  for (const { validated, request } of directory.pointOrders) {
    if (!facts.pointsSynced) {
      addMessages(validated, [
        {
          code: "PICKUP_POINT_NOT_VERIFIED",
          severity: "WARNING",
          field: "PickupPoint",
          message: `The ${courierId} pickup-point directory has not been synced yet: PickupPoint ${request.pickupPoint} was not checked`,
        },
      ]);
      continue;
    }
    const point = facts.point(request.pickupPoint!);
    const messages = pickupPointMessages(request, point);
    if (messages.length > 0) failed.push({ validated, messages, request: suggestionRequest(request, point) });
  }
  const suggestions = await suggestPickupPoints(
    db,
    courierId,
    failed.map((f) => f.request),
  );
  failed.forEach(({ validated, messages }, i) => {
    addMessages(
      validated,
      messages.map((m) => ({ ...m, suggestions: suggestions[i]! })),
    );
  });
}

export const responseOf = (orders: ValidatedOrder[], many: boolean): ValidationResponse | ValidationResponse[] =>
  many ? orders.map((o) => o.response) : orders[0]!.response;

/** `POST /couriers/{courier}/shipping-orders/validate`: 200 with the result of each order, recorded for review. */
export async function validateShippingOrders(
  db: Executor,
  origin: ValidationOrigin,
  command: ValidateCommand,
): Promise<ValidationResponse | ValidationResponse[]> {
  const { courier, profile, orders } = await validateBatch(db, origin, command);
  await recordValidationResults(
    db,
    origin,
    "validate",
    courier.capabilities.id,
    profile.id,
    command.batch.orders,
    orders,
  );
  return responseOf(orders, command.batch.many);
}
