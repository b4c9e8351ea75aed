import { z } from "zod";
import { allCouriers } from "@/server/couriers/registry";

export const courierView = z.object({
  id: z.string(),
  name: z.string(),
  services: z.array(z.string()).describe("Service codes"),
  countries: z.array(z.string()).describe("ISO 3166-1 alpha-2 codes"),
  maxParcelWeightKg: z.number(),
  cod: z.boolean().describe("Whether the courier collects cash on delivery"),
  codCurrencies: z.array(z.string()).describe("ISO 4217 currencies accepted for cash on delivery"),
});

export type CourierView = z.infer<typeof courierView>;

export function listCouriers(): { items: CourierView[] } {
  return {
    items: allCouriers().map(({ capabilities: c }) => ({
      id: c.id,
      name: c.name,
      services: c.services.map((s) => s.code),
      countries: [...c.countries],
      maxParcelWeightKg: c.maxParcelWeightKg,
      cod: c.codCurrencies.length > 0,
      codCurrencies: [...c.codCurrencies],
    })),
  };
}
