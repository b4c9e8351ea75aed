import type { CourierAdapter } from "./adapter";
import { packetaCourier } from "./packeta/adapter";
import { pplCourier } from "./ppl/adapter";
import { sandboxCourier } from "./sandbox";

/**
 * Every courier the platform integrates, by id. A new courier is one folder with its adapter and one line here.
 * The settings type is erased here: the platform reads a profile's settings through the adapter's own schema
 * (courierSettings) before handing them to it.
 */
const couriers: Record<string, CourierAdapter> = {
  [sandboxCourier.capabilities.id]: sandboxCourier as unknown as CourierAdapter,
  [packetaCourier.capabilities.id]: packetaCourier as unknown as CourierAdapter,
  [pplCourier.capabilities.id]: pplCourier as unknown as CourierAdapter,
};

export const courierIds = (): string[] => Object.keys(couriers);

export const findCourier = (id: string): CourierAdapter | undefined =>
  Object.hasOwn(couriers, id) ? couriers[id] : undefined;

export const allCouriers = (): CourierAdapter[] => Object.values(couriers);
