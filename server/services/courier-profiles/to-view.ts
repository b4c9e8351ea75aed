import type { CourierProfileRow } from "@/db/schema";
import { findCourier } from "@/server/couriers/registry";
import { maskProfileSettings } from "@/server/secrets/profile-settings";
import type { CourierProfileView } from "./schemas";

export const toCourierProfileView = (row: CourierProfileRow): CourierProfileView => ({
  id: row.id,
  courier: row.courier,
  name: row.name,
  service: row.service,
  isDefault: row.isDefault,
  settings: maskProfileSettings(row, findCourier(row.courier)?.settings.secretFields ?? []),
});
