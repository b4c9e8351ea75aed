import type { CourierProfileRow } from "@/db/schema";
import type { CourierProfileView } from "./schemas";

export const toCourierProfileView = (row: CourierProfileRow): CourierProfileView => ({
  id: row.id,
  courier: row.courier,
  name: row.name,
  service: row.service,
  isDefault: row.isDefault,
  settings: row.settings,
});
