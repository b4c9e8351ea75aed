import { sandboxCourier } from "./sandbox";
import type { CourierAdapter } from "./types";

/** Every courier the platform integrates, by id. A new courier is one adapter file and one line here. */
const couriers: Record<string, CourierAdapter> = {
  [sandboxCourier.capabilities.id]: sandboxCourier,
};

export const courierIds = (): string[] => Object.keys(couriers);

export const findCourier = (id: string): CourierAdapter | undefined =>
  Object.hasOwn(couriers, id) ? couriers[id] : undefined;

export const allCouriers = (): CourierAdapter[] => Object.values(couriers);
