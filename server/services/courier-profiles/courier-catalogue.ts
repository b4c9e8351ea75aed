import { z } from "zod";
import { allCouriers } from "@/server/couriers/registry";

/**
 * What each courier offers and what its profile takes, for the dashboard's profile form: the capabilities
 * (services, countries, COD), the settings as JSON Schema (types, limits, descriptions; built once, the adapters
 * do not change at run time), the write-only settings (shown masked, kept when left empty), and whether the
 * courier is reached over the network.
 */
const catalogue = () =>
  allCouriers().map((courier) => ({
    ...courier.capabilities,
    settingsSchema: z.toJSONSchema(courier.settings.schema, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >,
    secretFields: [...courier.settings.secretFields],
    remote: courier.remote,
  }));

let built: ReturnType<typeof catalogue> | undefined;
export const courierCatalogue = (): ReturnType<typeof catalogue> => (built ??= catalogue());
