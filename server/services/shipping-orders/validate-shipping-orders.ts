import type { Executor } from "@/db/client";
import { checkSourcePairs } from "./check-source-pairs";
import type { OrderBatch } from "./order-batch";
import { recordValidationResults, type ValidationOrigin } from "./record-validation-results";
import { resolveCourierProfile } from "./resolve-courier-profile";
import { markDuplicatesInRequest, validateOrder, type ValidatedOrder } from "./validate-order";
import { statusOf, type ValidationResponse } from "./validation-messages";
import { courierSettings } from "../couriers/call-courier";
import { toShipmentRequest } from "../couriers/shipment-request";

export type ValidateCommand = { courierId: string; profileId?: string | null; batch: OrderBatch };

/** Validation shared by validate and create: courier and profile (404), source pairs (422), then every rule. */
export async function validateBatch(db: Executor, origin: ValidationOrigin, command: ValidateCommand) {
  const { courier, profile } = await resolveCourierProfile(db, origin.accountId, command.courierId, command.profileId);
  const settings = courierSettings(courier, profile);
  const orders = command.batch.orders.map((raw) => {
    const validated = validateOrder(raw, courier.capabilities, { service: profile.service });
    // The courier's own written limits, at their fields, before any call (only on what the contract's rules let through).
    if (
      validated.order &&
      validated.service &&
      courier.capabilities.services.some((s) => s.code === validated.service)
    ) {
      // A courier's rule the platform's own rules already reported (same code at the same field) is said once.
      const said = new Set(validated.response.messages.map((m) => `${m.code} ${m.field}`));
      const messages = courier
        .validate(toShipmentRequest(validated.order, validated.service), settings)
        .filter((m) => !said.has(`${m.code} ${m.field}`));
      if (messages.length > 0) {
        validated.response.messages.push(...messages);
        validated.response.status = statusOf(validated.response.messages);
      }
    }
    return validated;
  });
  await checkSourcePairs(db, origin.accountId, orders, command.batch.many);
  if (command.batch.many) markDuplicatesInRequest(orders);
  return { courier, profile, orders };
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
